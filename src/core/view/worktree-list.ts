/** One working tree of a repository, as `git worktree list --porcelain -z` lists it. */
export interface WorktreeEntry {
  path: string;
  /** The branch checked out there (`feat/x`), null when its HEAD is detached. */
  branch: string | null;
  head: string | null;
  /** git's word when the folder is gone (`prunable`) or the repository is bare: nothing to read there. */
  unusable: boolean;
}

/** Reads `git worktree list --porcelain -z`: records of NUL-ended `key value` fields, each record ended by an empty one. */
export function parseWorktreeList(text: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let current: WorktreeEntry | null = null;
  for (const field of text.split("\0")) {
    if (field === "") {
      if (current) entries.push(current);
      current = null;
      continue;
    }
    const space = field.indexOf(" ");
    const key = space === -1 ? field : field.slice(0, space);
    const value = space === -1 ? "" : field.slice(space + 1);
    if (key === "worktree") {
      if (current) entries.push(current);
      current = { path: value, branch: null, head: null, unusable: false };
    } else if (current === null) continue;
    else if (key === "HEAD") current.head = value;
    else if (key === "branch")
      current.branch = value.replace(/^refs\/heads\//, "");
    else if (key === "bare" || key === "prunable") current.unusable = true;
  }
  if (current) entries.push(current);
  return entries;
}
