/** One file of the working tree as git would store it: its mode and blob id. */
export interface TreeEntry {
  path: string;
  mode: string;
  oid: string;
}

/** What `git ls-files -z -t -s -c -m -o -d --exclude-standard` says about the working tree. */
export interface ListedTree {
  /** Index entries, with the files deleted from the working tree left out. */
  entries: Map<string, TreeEntry>;
  /** Files whose content is not the index's: modified (`C`) and untracked (`?`); the caller hashes them. */
  changed: string[];
}

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

/** Reads the NUL-separated `-t` listing: `H|C|R <mode> <oid> <stage>\t<path>` for index entries, `? <path>` else. */
export function parseListedTree(output: string): ListedTree {
  const entries = new Map<string, TreeEntry>();
  const changed = new Set<string>();
  const deleted: string[] = [];
  // One pass with indexOf: this runs in the hook over every file of the repository.
  for (let at = 0; at < output.length;) {
    const nul = output.indexOf("\0", at);
    const end = nul < 0 ? output.length : nul;
    const line = at;
    at = end + 1;
    const tag = output[line];
    if (tag === "?") {
      const path = output.slice(line + 2, end);
      if (!isOutsideFingerprint(path)) changed.add(path);
      continue;
    }
    const tab = output.indexOf("\t", line);
    if (tab < 0 || tab > end) continue;
    const path = output.slice(tab + 1, end);
    if (isOutsideFingerprint(path)) continue;
    const modeEnd = output.indexOf(" ", line + 2);
    const oidEnd = output.indexOf(" ", modeEnd + 1);
    const mode = output.slice(line + 2, modeEnd);
    if (tag === "H") {
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
  }
  return { entries, changed: [...changed] };
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
