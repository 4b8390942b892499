import { isRuntimePath } from "../paths/repo-path.ts";

/** The uncommitted work git lists: paths whose content is on disk to copy, and tracked files deleted from it. */
export interface UncommittedListing {
  /** Modified, untracked (not ignored) and staged paths, sorted. Each is read from disk; a missing one was deleted. */
  present: string[];
  /** Tracked files missing from the working tree, sorted. */
  deleted: string[];
}

/**
 * Reads `git ls-files -z -v -t -m -o -d --exclude-standard` (`C path` modified, `R path` deleted, `? path` untracked)
 * and the NUL-separated names of `git diff-index --cached --name-only` (staged changes, which `-m` misses once the
 * working tree matches the index). playbook's runtime folder, the store itself among it, is left out.
 */
export function parseUncommittedListing(
  worktree: string,
  staged: string,
): UncommittedListing {
  const present = new Set<string>();
  const deleted = new Set<string>();
  for (const line of worktree.split("\0")) {
    if (line.length < 3 || line[1] !== " ") continue;
    const path = line.slice(2);
    if (isRuntimePath(path)) continue;
    const tag = line[0]?.toUpperCase();
    if (tag === "R") deleted.add(path);
    else if (tag === "C" || tag === "?") present.add(path);
  }
  for (const path of staged.split("\0"))
    if (path !== "" && !isRuntimePath(path)) present.add(path);
  for (const path of deleted) present.delete(path);
  return {
    present: [...present].sort(byPath),
    deleted: [...deleted].sort(byPath),
  };
}

export function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
