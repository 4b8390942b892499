import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readHookReply } from "../helpers/hook-reply.ts";
import { createParallelWorktrees } from "../helpers/parallel-worktrees.ts";
import { runHook } from "../helpers/run-hook.ts";

// In a linked worktree the repository's git folder and the other worktrees lie outside the project, where Claude
// Code's file tools (not sandboxed) can still write. Each is a place another session, or the hook, trusts.

describe("a session in a linked worktree: the repository's other trusted places, outside the project", () => {
  const repo = createParallelWorktrees(["alpha", "beta"]);
  const [alpha, beta] = repo.worktrees;
  if (!alpha || !beta) throw new Error("two worktrees");
  const write = (file_path: string) =>
    readHookReply(
      runHook(
        "PreToolUse",
        {
          session_id: "session-1",
          transcript_path: join(alpha.dir, ".claude", "transcript.jsonl"),
          cwd: alpha.dir,
          hook_event_name: "PreToolUse",
          permission_mode: "bypassPermissions",
          tool_name: "Write",
          tool_input: { file_path, content: "x\n" },
          tool_use_id: "toolu_1",
        },
        { cwd: alpha.dir, env: { CLAUDE_PROJECT_DIR: alpha.dir } },
      ).stdout,
    );

  it.each([
    [
      "the repository's git settings",
      () => join(repo.main.dir, ".git", "config"),
    ],
    [
      "the repository's git hooks",
      () => join(repo.main.dir, ".git", "hooks", "post-checkout"),
    ],
    [
      "this worktree's own git folder",
      () =>
        join(repo.main.dir, ".git", "worktrees", "alpha", "config.worktree"),
    ],
    [
      "the main worktree's records",
      () => join(repo.main.dir, ".claude", "playbook", "records", "x.json"),
    ],
    [
      "another worktree's hook loader",
      () => join(beta.dir, ".claude", "hooks", "playbook.cjs"),
    ],
    [
      "another worktree's playbook-kit",
      () => join(beta.dir, "node_modules", "playbook-kit", "dist", "bash.cjs"),
    ],
    [
      "another worktree's Claude Code settings",
      () => join(beta.dir, ".claude", "settings.json"),
    ],
  ])("the Write tool is refused %s", (_, path) => {
    const reply = write(path());
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("outside this working tree");
    expect(reply.reason).toContain("PLAYBOOK_DISABLE=1");
    expect(reply.reason).toMatch(/Next: /);
  });

  it("the Write tool is refused this worktree's .git file, which names the repository's git folder", () => {
    const reply = write(join(alpha.dir, ".git"));
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("`.git` is listed as HARD_BLOCK");
  });

  it("from the main worktree, the Write tool is refused a linked worktree's records", () => {
    const reply = readHookReply(
      runHook(
        "PreToolUse",
        {
          session_id: "session-main",
          transcript_path: join(repo.main.dir, ".claude", "transcript.jsonl"),
          cwd: repo.main.dir,
          hook_event_name: "PreToolUse",
          permission_mode: "bypassPermissions",
          tool_name: "Write",
          tool_input: {
            file_path: join(
              alpha.dir,
              ".claude",
              "playbook",
              "records",
              "x.json",
            ),
            content: "{}\n",
          },
          tool_use_id: "toolu_1",
        },
        { cwd: repo.main.dir, env: { CLAUDE_PROJECT_DIR: repo.main.dir } },
      ).stdout,
    );
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("outside this working tree");
  });

  it("an ordinary file of another worktree is that session's work, not a trust path: left to Claude Code's permissions", () => {
    expect(write(join(beta.dir, "src", "notes.ts")).reason).not.toContain(
      "another working tree",
    );
  });
});
