import { describe, expect, it } from "vitest";
import { PlaybookError } from "../../../../src/core/errors.ts";
import {
  findTrustPathIn,
  toTrustWriteFailure,
} from "../../../../src/core/records/trust-write-failure.ts";
import { toCliFailure } from "../../../../src/cli/print/failure.ts";

const refused = (code: string, path: string, dest?: string) =>
  Object.assign(new Error(`${code}: read-only file system, open '${path}'`), {
    code,
    path,
    ...(dest ? { dest } : {}),
  });

describe("a refused write to a trust path is the user's to act on, not a bug", () => {
  it.each([
    [
      "/p/.claude/playbook/records/plan__x.md/evidence.p1.1.json",
      ".claude/playbook/records",
    ],
    ["/p/.claude/playbook/records", ".claude/playbook/records"],
    ["/p/.claude/playbook/grants/review-1.json", ".claude/playbook/grants"],
    ["/p/.claude/playbook/post-loop.json", ".claude/playbook"],
    ["/p/.claude/playbook.json", ".claude/playbook.json"],
    ["/p/.claude/settings.json", ".claude/settings.json"],
    ["/p/node_modules/playbook-kit/dist/hook.cjs", "node_modules/playbook-kit"],
    ["/p/.claude/hooks/playbook.cjs", ".claude/hooks/playbook.cjs"],
    ["/p/.claude/playbook-manifest.json", null],
    ["/p/src/app.ts", null],
  ])("%s is %s", (path, shown) => {
    expect(findTrustPathIn(path)).toBe(shown);
  });

  it.each([
    [
      "playbook verify p1.1",
      "Run `playbook verify p1.1` through Claude Code's Bash tool, which the hook runs for you, or in your own terminal.",
    ],
    [
      "playbook confirm p1.1",
      "A person runs `playbook confirm p1.1` in their own terminal.",
    ],
    [
      "playbook review approve",
      "The reviewer subagent runs `playbook review approve` through its Bash tool, which the hook runs for it, or a person runs it in their own terminal.",
    ],
  ])(
    "%s says who writes the records, and its hint what to do next",
    (command, hint) => {
      const failure = toTrustWriteFailure(
        refused("EROFS", "/p/.claude/playbook/records/plan__x.md"),
        command,
      );
      expect(failure).toBeInstanceOf(PlaybookError);
      expect(failure?.code).toBe("E_WRITE");
      expect(failure?.message).toBe(
        "`.claude/playbook/records` is written only by playbook's hook or a person's terminal, and it is read-only here (inside Claude Code's sandbox, or on a read-only disk).",
      );
      expect(failure?.hint).toBe(hint);
    },
  );

  it("names the destination of a refused rename, and the configuration's owner", () => {
    const failure = toTrustWriteFailure(
      refused(
        "EBUSY",
        "/p/.claude/.playbook.json.1.tmp",
        "/p/.claude/playbook.json",
      ),
      "playbook init",
    );
    expect(failure?.message).toBe(
      "`.claude/playbook.json` is changed only by a person in their own terminal, and it is read-only here (inside Claude Code's sandbox, or on a read-only disk).",
    );
    expect(failure?.hint).toBe(
      "Ask the user to change `.claude/playbook.json` themselves, in their own terminal.",
    );
  });

  it("leaves every other failure as it was", () => {
    expect(
      toTrustWriteFailure(
        refused("ENOENT", "/p/.claude/playbook/x"),
        "playbook verify p1.1",
      ),
    ).toBeNull();
    expect(
      toTrustWriteFailure(
        refused("EROFS", "/p/src/app.ts"),
        "playbook verify p1.1",
      ),
    ).toBeNull();
    expect(
      toTrustWriteFailure(new Error("boom"), "playbook status"),
    ).toBeNull();
  });

  it("reaches the user as an error with its next step, not as an internal error", () => {
    const failure = toCliFailure(
      toTrustWriteFailure(
        refused("EACCES", "/p/.claude/playbook/records"),
        "playbook verify p1.1",
      ),
    );
    expect(failure.code).toBe("E_WRITE");
    expect(failure.stack).toBeNull();
  });
});
