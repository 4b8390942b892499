/** One file of the working tree as git would store it: its mode and blob id. */
export interface TreeEntry {
  path: string;
  mode: string;
  oid: string;
}

/** What `git ls-files -z -v -t [-s -c] -m -o -d --exclude-standard` says about the working tree. */
export interface ListedTree {
  /** Index entries (empty for a listing without `-s -c`), with the files deleted from the working tree left out. */
  entries: Map<string, TreeEntry>;
  /**
   * Files whose content the caller reads from disk: modified (`C`), untracked (`?`), and index entries git is told
   * not to look at (assume-unchanged, skip-worktree), whose content git would not report as changed.
   */
  changed: string[];
  /** Index entries deleted from the working tree. */
  deleted: string[];
  /** The assume-unchanged and skip-worktree entries among `changed` (they come from the index, so only with `-c`). */
  unwatched: string[];
  /** The untracked files among `changed`. */
  untracked: Set<string>;
}

/**
 * What a changed path is on disk: a file or link with its blob id, `absent` (its index entry is dropped), or `index`
 * (its index entry stands: a directory where a file was, a skip-worktree file outside the sparse checkout, a sandbox's
 * mount point).
 */
export type PathState = { mode: string; oid: string } | "absent" | "index";

/**
 * What the fingerprint leaves out: the plan and state.md change with every tick, and the runtime folder with every
 * record; none of them is the code a validation proves.
 */
export function isOutsideFingerprint(path: string): boolean {
  return (
    path === "state.md" ||
    path.startsWith("plan/") ||
    path.startsWith(".claude/playbook/")
  );
}

/**
 * Reads the NUL-separated `-v -t` listing: `H|S|M|C|R <mode> <oid> <stage>\t<path>` for index entries (a lowercase
 * tag marks assume-unchanged), `? <path>` else. Without `-s` an index line is `<tag> <path>`.
 */
export function parseListedTree(output: string): ListedTree {
  const entries = new Map<string, TreeEntry>();
  const changed = new Set<string>();
  const unwatched = new Set<string>();
  const untracked = new Set<string>();
  const deleted: string[] = [];
  // One pass with indexOf: this runs in the hook over every file of the repository.
  for (let at = 0; at < output.length;) {
    const nul = output.indexOf("\0", at);
    const end = nul < 0 ? output.length : nul;
    const line = at;
    at = end + 1;
    const raw = output[line] ?? "";
    if (raw === "?") {
      const path = output.slice(line + 2, end);
      if (!isOutsideFingerprint(path)) {
        changed.add(path);
        untracked.add(path);
      }
      continue;
    }
    const tag = raw.toUpperCase();
    const tab = output.indexOf("\t", line);
    const staged = tab >= 0 && tab < end;
    const path = output.slice(staged ? tab + 1 : line + 2, end);
    if (isOutsideFingerprint(path)) continue;
    // git does not look at these files' content: a change to them shows in no `C` line, so they are read from disk.
    if (raw !== tag || tag === "S") {
      unwatched.add(path);
      changed.add(path);
    }
    if (!staged) {
      if (tag === "R") deleted.push(path);
      else if (tag === "C") changed.add(path);
      continue;
    }
    const modeEnd = output.indexOf(" ", line + 2);
    const oidEnd = output.indexOf(" ", modeEnd + 1);
    const mode = output.slice(line + 2, modeEnd);
    if (tag === "H" || tag === "S" || tag === "M") {
      const stage = output.slice(oidEnd + 1, tab);
      // An unmerged path has one entry per stage; each is part of the state the validation saw.
      entries.set(stage === "0" ? path : `${path}\0${stage}`, {
        path,
        mode,
        oid: output.slice(modeEnd + 1, oidEnd),
      });
    } else if (tag === "R") deleted.push(path);
    else if (tag === "C" && mode !== "160000") changed.add(path);
  }
  for (const path of deleted) {
    entries.delete(path);
    changed.delete(path);
    unwatched.delete(path);
  }
  return {
    entries,
    changed: [...changed],
    deleted,
    unwatched: [...unwatched],
    untracked,
  };
}

/** The index entries with what the disk says about the changed and deleted paths laid over them. */
export function applyDelta(
  entries: Map<string, TreeEntry>,
  delta: ReadonlyMap<string, PathState>,
): Map<string, TreeEntry> {
  for (const [path, state] of delta)
    if (state === "absent") entries.delete(path);
    else if (state !== "index") entries.set(path, { path, ...state });
  return entries;
}

/**
 * The delta in one canonical line per path, sorted: with an unchanged index, the same text means the same tree. The
 * tree's basis (docs/trust-boundary.md) keeps it, so a tick need not list every file again.
 */
export function deltaText(delta: ReadonlyMap<string, PathState>): string {
  return [...delta]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, state]) =>
      typeof state === "string"
        ? `${state} ${path}`
        : `${state.mode} ${state.oid} ${path}`,
    )
    .join("\0");
}

/**
 * The canonical text a fingerprint hashes: one `mode oid path` per file, sorted by path. It depends on content and
 * paths only, so committing, staging or stashing-and-restoring the same files keeps the fingerprint.
 */
export function fingerprintText(entries: Iterable<TreeEntry>): string {
  return [...entries]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((e) => `${e.mode} ${e.oid} ${e.path}`)
    .join("\0");
}

/** Paths whose mode or content differs between two listings (added, removed or changed), sorted. */
export function changedPaths(
  before: ReadonlyMap<string, TreeEntry>,
  after: ReadonlyMap<string, TreeEntry>,
): string[] {
  const paths = new Set<string>();
  for (const [key, entry] of before) {
    const now = after.get(key);
    if (!now || now.oid !== entry.oid || now.mode !== entry.mode)
      paths.add(entry.path);
  }
  for (const [key, entry] of after) if (!before.has(key)) paths.add(entry.path);
  return [...paths].sort();
}
