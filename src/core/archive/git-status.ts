/** One entry of `git status --porcelain=v1 -z`. */
export interface StatusEntry {
  /** The path now (for a rename, the new one). */
  path: string;
  /** The path before a rename or copy, else null. */
  from: string | null;
  /** Index (staged) and work-tree letters: ` `, M, A, D, R, C, U, `?` (untracked), `!` (ignored). */
  index: string;
  worktree: string;
}

/**
 * Parses `git status --porcelain=v1 -z` (NUL-separated, so any path is safe). Renames and copies are followed by
 * their source path in the next field.
 */
export function parseStatusZ(output: string): StatusEntry[] {
  const fields = output.split("\0");
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] ?? "";
    if (field.length < 4) continue;
    const index = field[0] ?? " ";
    const worktree = field[1] ?? " ";
    const path = field.slice(3);
    const from = index === "R" || index === "C" ? (fields[++i] ?? null) : null;
    entries.push({ path, from, index, worktree });
  }
  return entries;
}

/** Changes the archive commits: tracked changes and new files git does not ignore. */
export function committableChanges(
  entries: readonly StatusEntry[],
): StatusEntry[] {
  return entries.filter((e) => e.index !== "!");
}

/** Whether an entry is a merge conflict (unmerged paths). */
export function isConflict(entry: StatusEntry): boolean {
  return (
    entry.index === "U" ||
    entry.worktree === "U" ||
    (entry.index === "A" && entry.worktree === "A") ||
    (entry.index === "D" && entry.worktree === "D")
  );
}
