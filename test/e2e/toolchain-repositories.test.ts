import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { npxEnv, npxPlaybookArgs } from "../../demo/install-playbook.ts";
import { createMoves } from "../../demo/moves.ts";
import { goldenPathSessions } from "../../demo/run-task.ts";
import {
  GO_SAMPLE_FILES,
  PYTHON_SAMPLE_FILES,
} from "../../demo/sample-project.ts";
import { GO_MULTIPLY, PY_MULTIPLY } from "../../demo/tasks-toolchains.ts";
import { terminalEnv } from "../../demo/golden-path.ts";
import {
  TODAY,
  createWorld,
  expectOnPath,
  refusal,
  stepTitled,
} from "../helpers/golden-path-world.ts";
import { spawnText } from "../../harness/spawn-text.ts";

const CLI = "node .claude/playbook/runtime/dist/cli.mjs";
const RECORDS = ".claude/playbook/records/plan__playbook-multiply.md";

/** The evidence verify recorded for p1.1's technical validation. */
function technicalEvidence(records: string): {
  verdict: string;
  detail: { command: string; exitCode: number };
} {
  return JSON.parse(
    readFileSync(join(records, "evidence.p1.1.technical.json"), "utf8"),
  ) as ReturnType<typeof technicalEvidence>;
}

describe("repositories without package.json, set up with `npx playbook-kit@<version> init`", () => {
  it("a Python repository (pytest): takes a prompt to merged work on main, names playbook as the setup runs it, and guards a teammate's clone only after `install`", async () => {
    const world = await createWorld({
      files: PYTHON_SAMPLE_FILES,
      setup: "runtime",
    });
    const setup = world.steps[0];
    expect(setup?.verdict, setup?.lines.join("\n")).toBe("ok");

    // Nothing Node-specific is committed, and no committed file names a path of this machine.
    const tracked = world.project
      .git("ls-files")
      .split("\n")
      .filter((f) => f !== "");
    expect(tracked).not.toContain("package.json");
    expect(tracked.some((f) => f.startsWith("node_modules/"))).toBe(false);
    expect(tracked.some((f) => f.startsWith(".claude/playbook/runtime/"))).toBe(
      false,
    );
    const machinePaths = [world.project.dir, homedir(), join(world.home, "..")];
    for (const file of tracked) {
      const text = readFileSync(world.path(file), "utf8");
      for (const path of machinePaths)
        expect(text.includes(path), `${file} names ${path}`).toBe(false);
    }
    expect(world.read(".claude/hooks/playbook.cjs")).toContain(
      '"playbook", "runtime", "dist"',
    );
    expect(world.read("CLAUDE.md")).toContain(CLI);

    const [request] = goldenPathSessions(world, PY_MULTIPLY, TODAY, {
      demoBlocks: false,
      cli: CLI,
    });
    const m = createMoves(world.project.dir, PY_MULTIPLY, { cli: CLI });
    request.moves.unshift(
      m.bash(
        "agent",
        "it runs playbook the npm way: npx --no playbook status",
        "npx --no playbook status",
        "deny",
      ),
      m.bash("agent", `it reads the status: ${CLI} status`, `${CLI} status`),
    );
    await world.session(request);
    expectOnPath(world);

    // The npm spelling fails in a repository without node_modules: refused with the one that works here.
    expect(
      refusal(
        stepTitled(
          world,
          "it runs playbook the npm way: npx --no playbook status",
        ),
      ),
    ).toContain(`Next: run \`${CLI} status\``);
    // Every command a reply named is spelled the way this project runs playbook.
    const replies = world.steps
      .map((s) => `${s.reply?.result?.text ?? ""} ${s.reply?.feedback ?? ""}`)
      .join("\n");
    expect(replies).not.toMatch(/`npx --no playbook [a-z]/);

    // pytest proved p1.1 inside verify's sandbox; the archive merged the work into origin's main.
    const evidence = technicalEvidence(world.path(RECORDS));
    expect(evidence).toMatchObject({
      verdict: "PASS",
      detail: {
        command: "python3 -m pytest -q tests/test_multiply.py",
        exitCode: 0,
      },
    });
    expect(world.project.remoteGit("show", "main:calc/multiply.py")).toContain(
      "return a * b",
    );
    expect(world.project.remoteGit("show", "main:README.md")).toContain(
      "multiply(a, b)",
    );

    // A teammate's fresh clone: the committed hooks refuse every write until the one documented command has run.
    const mate = join(world.project.dir, "..", "mate");
    execFileSync("git", [
      "clone",
      "-q",
      "-b",
      "main",
      world.project.remoteDir,
      mate,
    ]);
    const attempt = (title: string, file: string) =>
      m.move(
        "agent",
        title,
        {
          name: "Write",
          input: {
            file_path: join(mate, file),
            content: "def divide(a, b):\n    return a / b\n",
          },
        },
        "deny",
      );
    await world.session({
      dir: mate,
      prompt: "Add a divide function.",
      moves: [
        attempt("before install it writes code", "calc/divide.py"),
        m.say("agent", "it stops", "Waiting for the install.", "stop"),
      ],
    });
    // The loader refuses before any of playbook's code runs (so the demo's hook log, which names denies, is silent):
    // the model reads the refusal as the tool's error.
    const before = stepTitled(world, "before install it writes code").reply
      ?.result;
    expect(before?.isError).toBe(true);
    expect(before?.text).toContain("PreToolUse:Write hook error: Blocked");
    expect(before?.text).toContain("`npx playbook-kit@0.1.0 install`");
    expect(existsSync(join(mate, "calc/divide.py"))).toBe(false);

    const install = await spawnText("npx", npxPlaybookArgs(["install"]), {
      cwd: mate,
      env: npxEnv(
        terminalEnv({ NO_COLOR: "1" }),
        join(world.project.dir, "..", "npm-cache"),
      ),
      input: "",
      timeoutMs: 180_000,
    });
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    expect(install.stdout).toContain(
      "playbook-kit 0.1.0 is installed in .claude/playbook/runtime/",
    );
    // The copy is ignored by git: the clone stays clean.
    expect(
      execFileSync("git", ["status", "--porcelain"], {
        cwd: mate,
        encoding: "utf8",
      }),
    ).toBe("");

    await world.session({
      dir: mate,
      prompt: "Add a divide function.",
      moves: [
        attempt("after install it writes code on main", "calc/divide.py"),
        m.say("agent", "it stops", "I need a playbook first.", "stop"),
      ],
    });
    // Now playbook's own guards answer: work is not done on main, and nothing was written.
    expect(
      refusal(stepTitled(world, "after install it writes code on main")),
    ).toContain("default branch `main`");
    expect(existsSync(join(mate, "calc/divide.py"))).toBe(false);
  }, 600_000);

  it("a Go module: `go test` proves the work offline in verify's sandbox, and the archive merges it", async () => {
    const world = await createWorld({
      files: GO_SAMPLE_FILES,
      setup: "runtime",
    });
    expect(world.steps[0]?.verdict, world.steps[0]?.lines.join("\n")).toBe(
      "ok",
    );
    // The agent's shell may write Go's build cache (its own `go test` needs it); init made the folder, which the
    // sandbox opens only when it exists.
    const settings = JSON.parse(world.read(".claude/settings.json")) as {
      sandbox: { filesystem: { allowWrite?: string[] } };
    };
    expect(settings.sandbox.filesystem.allowWrite).toEqual([
      "~/.cache/go-build",
      "~/Library/Caches/go-build",
    ]);
    // init proposed the module's own toolchain.
    expect(world.read(".claude/agents/pm.md")).toContain("go test ./...");
    const [request] = goldenPathSessions(world, GO_MULTIPLY, TODAY, {
      demoBlocks: false,
      cli: CLI,
    });
    await world.session(request);
    expectOnPath(world);
    const evidence = technicalEvidence(world.path(RECORDS));
    expect(evidence).toMatchObject({
      verdict: "PASS",
      detail: { command: "go test -run TestMultiply ./...", exitCode: 0 },
    });
    expect(world.project.remoteGit("show", "main:multiply.go")).toContain(
      "return a * b",
    );
  }, 600_000);
});
