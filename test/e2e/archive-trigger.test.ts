import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  createFinishedRepo,
  FINISHED_PLAYBOOK,
} from "../helpers/finished-repo.ts";
import {
  PLAYBOOK,
  runByPlaybook,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";

/** The Edit that ticks the final task, as Claude Code reports it after writing the file. */
function tickFinalTask(repo: GuardedRepo) {
  repo.write(PLAYBOOK, FINISHED_PLAYBOOK);
  return repo.hook(
    "PostToolUse",
    {
      tool_name: "Edit",
      tool_input: {
        file_path: repo.path(PLAYBOOK),
        old_string: "- [ ] **ft1**",
        new_string: "- [x] **ft1**",
      },
      tool_response: { filePath: repo.path(PLAYBOOK), success: true },
      tool_use_id: "toolu_9",
    },
    { GITHUB_TOKEN: undefined, GH_TOKEN: undefined },
  );
}

describe("the archive starts when an edit finishes the playbook", () => {
  it("ticking the last box with every proof recorded archives, merges and sets the lock", () => {
    const repo = createFinishedRepo({
      playbook: FINISHED_PLAYBOOK.replace("- [x] **ft1**", "- [ ] **ft1**"),
    });
    const reply = tickFinalTask(repo);
    expect(reply.status).toBe(0);
    expect(reply.context).toContain(
      "playbook archived plan/playbook-login-form.md → plan/archive/playbook-login-form.md (merged into main); the post-loop lock is set. Next: run /post-loop",
    );
    expect(reply.notice).toContain(
      "playbook archived plan/playbook-login-form.md",
    );
    expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(true);
    expect(
      execFileSync("git", ["ls-tree", "--name-only", "main", "plan/archive/"], {
        cwd: repo.remoteDir,
        encoding: "utf8",
      }).trim(),
    ).toBe("plan/archive/playbook-login-form.md");
    // The lock now holds the agent on the repair path until /post-loop.
    const edit = repo.pre("Edit", {
      file_path: repo.path("src/app.ts"),
      old_string: "1",
      new_string: "2",
    });
    expect(edit.decision).toBe("deny");
    expect(edit.reason).toContain("post-loop lock");
    // `playbook post-loop` is run by the hook itself, and lifts the lock.
    const lifted = runByPlaybook(repo.bash("playbook post-loop"));
    expect(lifted.status).toBe(0);
    expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(
      false,
    );
  });

  it("does not start without the proof: a missing critic verdict keeps it open", () => {
    const repo = createFinishedRepo({
      playbook: FINISHED_PLAYBOOK.replace("- [x] **ft1**", "- [ ] **ft1**"),
    });
    repo.record({
      kind: "critic",
      playbook: PLAYBOOK,
      target: "p2",
      verdict: "FAIL",
      by: "critic",
      detail: {},
    });
    const reply = tickFinalTask(repo);
    expect(reply.context).toBe("");
    expect(existsSync(repo.path(".claude/playbook/archive-journal.json"))).toBe(
      false,
    );
  });

  it("an ordinary edit never loads the archive bundle", () => {
    const repo = createFinishedRepo();
    // A preload that reports, at exit, every module file the process loaded.
    repo.write(
      ".claude/loaded.cjs",
      'process.on("exit", () => require("node:fs").writeSync(2, "\\nLOADED " + JSON.stringify(Object.keys(require.cache))));',
    );
    const edit = (file: string) =>
      repo.hook(
        "PostToolUse",
        {
          tool_name: "Edit",
          tool_input: {
            file_path: repo.path(file),
            old_string: "1",
            new_string: "2",
          },
          tool_response: { filePath: repo.path(file) },
          tool_use_id: "t",
        },
        { NODE_OPTIONS: `--require ${repo.path(".claude/loaded.cjs")}` },
      );
    for (const file of ["src/app.ts", "state.md"]) {
      const reply = edit(file);
      const loaded = JSON.parse(
        /LOADED (.*)/.exec(reply.stderr)?.[1] ?? "[]",
      ) as string[];
      expect(
        loaded.some(
          (m) => m.endsWith("hook-main.cjs") || m.endsWith("hook.cjs"),
        ),
      ).toBe(true);
      expect(loaded.filter((m) => m.endsWith("archive.cjs"))).toEqual([]);
    }
    expect(existsSync(repo.path(".claude/playbook/archive-journal.json"))).toBe(
      false,
    );
  });
});
