import { describe, expect, it } from "vitest";
import { bashCheckGuard } from "../../../../src/core/guards/bash-check.ts";
import { parseTrustedArgs } from "../../../../src/core/guards/trusted-args.ts";
import { bashChanges, guardContext } from "../../../helpers/guard-context.ts";

const where = { projectDir: "/repo", cwd: "/repo" };

describe("the grammar of the commands the hook runs for the agent", () => {
  it.each([
    [
      ["verify", "p1.1"],
      ["verify", "p1.1", "--cwd", "/repo"],
    ],
    [
      ["verify", "p2"],
      ["verify", "p2", "--cwd", "/repo"],
    ],
    [
      ["verify", "--json", "p1.1", "--timeout", "60"],
      ["verify", "p1.1", "--json", "--timeout", "60", "--cwd", "/repo"],
    ],
    [
      ["verify", "p1.1", "--playbook=plan/playbook-x.md"],
      ["verify", "p1.1", "--playbook", "plan/playbook-x.md", "--cwd", "/repo"],
    ],
    [["post-loop"], ["post-loop", "--cwd", "/repo"]],
    [
      ["new", "login-form"],
      ["new", "login-form", "--cwd", "/repo"],
    ],
    [
      ["archive", "--resume", "--dry-run"],
      ["archive", "--resume", "--dry-run", "--cwd", "/repo"],
    ],
    [
      ["review", "approve", "--notes", "fine --cwd /x"],
      ["review", "approve", "--notes", "fine --cwd /x", "--cwd", "/repo"],
    ],
    [
      ["crit", "record", "p1", "PASS", "--evidence", "ran it"],
      [
        "crit",
        "record",
        "p1",
        "PASS",
        "--evidence",
        "ran it",
        "--cwd",
        "/repo",
      ],
    ],
  ])("%j runs as %j", (args, expected) => {
    expect(parseTrustedArgs(args, where)).toEqual({ ok: true, args: expected });
  });

  it("reads a relative playbook path from the shell's folder, and passes it as the project names it", () => {
    expect(
      parseTrustedArgs(
        ["verify", "p1.1", "--playbook", "../plan/playbook-x.md"],
        {
          projectDir: "/repo",
          cwd: "/repo/src",
        },
      ),
    ).toEqual({
      ok: true,
      args: [
        "verify",
        "p1.1",
        "--playbook",
        "plan/playbook-x.md",
        "--cwd",
        "/repo",
      ],
    });
  });

  it.each([
    [["verify", "p1.1", "--cwd", "scratch/evil"], "--cwd"],
    [["verify", "p1.1", "--cwd=scratch/evil"], "--cwd"],
    [
      ["verify", "p1.1", "--playbook", "../../etc/playbook-x.md"],
      "outside the project",
    ],
    [
      ["verify", "p1.1", "--playbook", "/tmp/plan/playbook-x.md"],
      "outside the project",
    ],
    [
      ["verify", "p1.1", "--playbook", "scratch/evil/plan/playbook-x.md"],
      "not a playbook under plan/",
    ],
    [
      ["verify", "p1.1", "--playbook", "state.md"],
      "not a playbook under plan/",
    ],
    [["verify", "p1.1", "--timeout", "1;touch x"], "seconds"],
    [["verify"], "expected"],
    [["verify", "p1.1", "p1.2"], "expected"],
    [["verify", "$(id)"], "does not fit"],
    [["verify", "p1.1", "--", "--cwd"], "`--`"],
    [["verify", "p1.1", "--json=1"], "takes no value"],
    [["archive", "--provider", "local"], "--provider"],
    [["archive", "--session", "other"], "--session"],
    [["review", "approve", "--playbook"], "needs a value"],
    [["crit", "record", "p1.1", "PASS"], "does not fit"],
    [["crit", "record", "p1", "MAYBE"], "does not fit"],
    [["confirm", "p1.1"], "not a command"],
    [["new", "../x"], "does not fit `playbook new <name> [--json]`"],
    [["new", "Login"], "does not fit"],
    [["new", "login", "--cwd", "/tmp"], "--cwd"],
  ])("%j is refused (%s)", (args, why) => {
    const parsed = parseTrustedArgs(args, where);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(why);
  });
});

describe("bash-check runs proof commands only with their own arguments", () => {
  it("refuses `playbook verify p1.1 --cwd scratch/evil`, naming the option and the project's root", () => {
    const result = bashCheckGuard.check(
      guardContext(
        bashChanges("npx --no playbook verify p1.1 --cwd scratch/evil"),
      ),
    );
    expect(result.decision.kind).toBe("block");
    const reason =
      result.decision.kind === "block" ? result.decision.reason : "";
    expect(reason).toContain("`--cwd` is not an option");
    expect(reason).toContain("project's root");
    expect(result.effects ?? []).toEqual([]);
  });

  it("runs `playbook new` itself: it writes the plan, which the agent's shell may not", () => {
    const result = bashCheckGuard.check(
      guardContext(bashChanges("npx playbook new login-form")),
    );
    expect(result.effects).toEqual([
      {
        kind: "trusted-command",
        args: ["new", "login-form", "--cwd", "/repo"],
      },
    ]);
    const chained = bashCheckGuard.check(
      guardContext(bashChanges("cd /repo && npx playbook new login-form")),
    );
    expect(chained.decision.kind).toBe("block");
    if (chained.decision.kind === "block")
      expect(chained.decision.reason).toContain("writes the plan");
  });

  it("from a subfolder, runs `playbook verify p1.1` at the project's root", () => {
    const ctx = guardContext(
      bashChanges(
        "npx --no playbook verify p1.1 --playbook ../plan/playbook-x.md",
        "/repo/src",
      ),
    );
    const result = bashCheckGuard.check({ ...ctx, cwd: "/repo/src" });
    expect(result.decision.kind).toBe("allow");
    expect(result.effects).toEqual([
      {
        kind: "trusted-command",
        args: [
          "verify",
          "p1.1",
          "--playbook",
          "plan/playbook-x.md",
          "--cwd",
          ctx.projectDir,
        ],
      },
    ]);
  });
});
