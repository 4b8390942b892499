/** One working tree of a repository, from `git worktree list --porcelain`. */
export interface WorktreeEntry {
  /** Its folder, as git recorded it. */
  path: string;
  /** The branch it has checked out (`main`), or null when it is detached or bare. */
  branch: string | null;
}

/** The records of `git worktree list --porcelain`: `worktree <path>`, then `branch refs/heads/<name>` or `detached`. */
export function parseWorktreeList(text: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("worktree "))
      entries.push({ path: line.slice("worktree ".length), branch: null });
    const last = entries.at(-1);
    if (last && line.startsWith("branch refs/heads/"))
      last.branch = line.slice("branch refs/heads/".length);
  }
  return entries;
}
