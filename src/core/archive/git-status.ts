/** One entry of `git status`. */
export interface StatusEntry {
  /** The path now (for a rename, the new one). */
  path: string;
  /** The path before a rename or copy, else null. */
  from: string | null;
  /** Index (staged) and work-tree letters: ` `, M, A, D, R, C, U, `?` (untracked), `!` (ignored). */
  index: string;
  worktree: string;
}

/** A working tree at one moment: where HEAD is, and what differs from it. */
export interface WorkTreeStatus {
  /** The branch HEAD is on, or null when it is detached. */
  branch: string | null;
  /** HEAD's commit, or null before the first commit. */
  head: string | null;
  entries: StatusEntry[];
}

/**
 * Parses `git status --porcelain=v2 --branch -z` (NUL-separated, so any path is safe): the `# branch.oid` and
 * `# branch.head` headers, then one record per changed path. A rename or copy is followed by its source path in the
 * next field; `.` (unchanged) in the two letters reads as a space, as in the short format.
 */
export function parseStatusV2Z(output: string): WorkTreeStatus {
  const fields = output.split("\0");
  const status: WorkTreeStatus = { branch: null, head: null, entries: [] };
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] ?? "";
    const kind = field[0];
    if (kind === "#") {
      const [, name, value = ""] = field.split(" ");
      if (name === "branch.oid" && value !== "(initial)") status.head = value;
      if (name === "branch.head" && value !== "(detached)")
        status.branch = value;
      continue;
    }
    if (kind === "?" || kind === "!") {
      status.entries.push({
        path: field.slice(2),
        from: null,
        index: kind,
        worktree: kind,
      });
      continue;
    }
    // Fields before the path: `1 XY sub mH mI mW hH hI`, `2` adds the score, `u` has three stages.
    const before = kind === "1" ? 8 : kind === "2" ? 9 : kind === "u" ? 10 : -1;
    if (before < 0) continue;
    const path = afterSpaces(field, before);
    if (path === null) continue;
    const letters = field.slice(2, 4).replaceAll(".", " ");
    status.entries.push({
      path,
      from: kind === "2" ? (fields[++i] ?? null) : null,
      index: letters[0] ?? " ",
      worktree: letters[1] ?? " ",
    });
  }
  return status;
}

/** The rest of `field` after its first `count` spaces (a path may hold spaces itself), or null. */
function afterSpaces(field: string, count: number): string | null {
  let at = -1;
  for (let n = 0; n < count; n++) {
    at = field.indexOf(" ", at + 1);
    if (at < 0) return null;
  }
  return field.slice(at + 1);
}

/** Every change git shows except ignored files: tracked, staged and untracked (the commit step picks from these). */
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
