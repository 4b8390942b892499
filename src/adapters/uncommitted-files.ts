import {
  parseUncommittedListing,
  type UncommittedListing,
} from "../core/snapshot/uncommitted-listing.ts";
import { runGit } from "./git-runner.ts";
import { LISTING, TREE_GIT_SETTINGS, WORKTREE } from "./tree-listing.ts";

export type UncommittedFiles =
  | ({ kind: "listed" } & UncommittedListing)
  | { kind: "no-repository" }
  | { kind: "failed"; why: string };

/**
 * The uncommitted work under `root`, from two git processes run side by side: `git ls-files -m -o -d` (what the tree
 * fingerprint lists, with its stat settings) and `git diff-index --cached` against HEAD (staged changes). On a branch
 * with no commit yet every index entry counts as staged. Paths are relative to `root`. Never throws.
 */
export async function readUncommittedFiles(
  root: string,
  timeoutMs: number,
): Promise<UncommittedFiles> {
  const git = (args: readonly string[]) =>
    runGit({
      cwd: root,
      args: [...TREE_GIT_SETTINGS, ...args],
      purpose: "read",
      // Node takes only whole milliseconds.
      timeoutMs: Math.max(1, Math.floor(timeoutMs)),
    });
  const [worktree, staged] = await Promise.all([
    git([...LISTING, ...WORKTREE]),
    git(["diff-index", "--cached", "--name-only", "-z", "--relative", "HEAD"]),
  ]);
  if (worktree.status !== 0) {
    // Outside a repository, or where git is not installed, git has no uncommitted work to lose.
    if (
      /not a git repository/i.test(worktree.stderr) ||
      (worktree.status === null && /\bENOENT\b/.test(worktree.stderr))
    )
      return { kind: "no-repository" };
    return { kind: "failed", why: gitFailure("ls-files", worktree) };
  }
  let stagedNames = staged.stdout;
  if (staged.status !== 0) {
    // No commit yet: HEAD names nothing, and everything in the index is new.
    const all = await git(["ls-files", "-z", "--cached"]);
    if (all.status !== 0 || staged.timedOut)
      return { kind: "failed", why: gitFailure("diff-index", staged) };
    stagedNames = all.stdout;
  }
  return {
    kind: "listed",
    ...parseUncommittedListing(worktree.stdout, stagedNames),
  };
}

function gitFailure(
  command: string,
  result: { status: number | null; stderr: string; timedOut: boolean },
): string {
  if (result.timedOut) return `git ${command} ran out of time`;
  const first = result.stderr.trim().split("\n")[0] ?? "";
  return `git ${command} failed${first ? `: ${first}` : ""}`;
}
