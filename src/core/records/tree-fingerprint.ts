/** One file of the working tree as git would store it: its mode and blob id. */
export interface TreeEntry {
  path: string;
  mode: string;
  oid: string;
}

/**
 * What `git ls-files -z -t -s -c -o --exclude-standard` names: each path of the repository's index once (an unmerged
 * path has an entry per stage) with its mode, each untracked path git does not ignore (null), and the gitlinks with
 * the commit the index names; without the paths the fingerprint leaves out. Nothing else of the index is read: its
 * stat data, flags and ids are the agent's to write.
 */
export function parseTreePaths(output: string): {
  paths: Map<string, string | null>;
  gitlinks: Map<string, string>;
} {
  const paths = new Map<string, string | null>();
  const gitlinks = new Map<string, string>();
  // One pass with indexOf: this runs over every file of the repository.
  for (let at = 0; at < output.length;) {
    const nul = output.indexOf("\0", at);
    const end = nul < 0 ? output.length : nul;
    const line = at;
    at = end + 1;
    if (output[line] === "?") {
      const path = output.slice(line + 2, end);
      if (!isOutsideFingerprint(path)) paths.set(path, null);
      continue;
    }
    const tab = output.indexOf("\t", line);
    if (tab < 0 || tab > end) continue;
    const path = output.slice(tab + 1, end);
    if (isOutsideFingerprint(path)) continue;
    const modeEnd = output.indexOf(" ", line + 2);
    const mode = output.slice(line + 2, modeEnd);
    if (mode === "160000")
      gitlinks.set(
        path,
        output.slice(modeEnd + 1, output.indexOf(" ", modeEnd + 1)),
      );
    paths.set(path, mode);
  }
  return { paths, gitlinks };
}

/**
 * What `git ls-files -z -v -t -m -o -d --exclude-standard` against playbook's own index lists: paths whose stat
 * differs from what that index holds (or that it holds as listed always), and untracked paths it does not hold.
 */
export function parseChangedPaths(output: string): {
  paths: string[];
  untracked: Set<string>;
} {
  const paths = new Set<string>();
  const untracked = new Set<string>();
  for (const line of output.split("\0")) {
    if (line.length < 3 || line[1] !== " ") continue;
    const path = line.slice(2);
    if (isOutsideFingerprint(path)) continue;
    paths.add(path);
    if (line[0] === "?") untracked.add(path);
  }
  return { paths: [...paths], untracked };
}

/**
 * What a path is on disk, for the fingerprint: a file, link or gitlink with its mode and id, or `none` (no file: a
 * path with nothing there, a folder, a device or pipe, a sandbox's mount point, a path through a link).
 */
export type PathState = { mode: string; oid: string } | "none";

/**
 * What the fingerprint leaves out: the plan and state.md change with every tick, and the runtime folder with every
 * record; none of them is the code a validation proves.
 */
function isOutsideFingerprint(path: string): boolean {
  return (
    path === "state.md" ||
    path.startsWith("plan/") ||
    path.startsWith(".claude/playbook/")
  );
}

/**
 * The states of the paths git lists on every reading, in one canonical line per path, sorted: with the same indexes,
 * the same text means the same tree. The tree's basis (docs/trust-boundary.md) keeps it, so a tick need not read
 * every file again.
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
