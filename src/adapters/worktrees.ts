import {
  parseWorktreeList,
  type WorktreeEntry,
} from "../core/view/worktree-list.ts";
import { runGitSync } from "./git-runner.ts";

/**
 * The working trees of the repository at `root` (the main one first), through the git that runs nothing; empty when
 * git cannot list them (no repository, or settings it refuses).
 */
export function listWorktrees(root: string): WorktreeEntry[] {
  const result = runGitSync({
    cwd: root,
    args: ["worktree", "list", "--porcelain", "-z"],
    purpose: "read",
    timeoutMs: 10_000,
  });
  return result.status === 0 ? parseWorktreeList(result.stdout) : [];
}
