import { join } from "node:path";
import { findDotGit, runGitSync } from "./git-runner.ts";
import { fileClock, statId } from "./file-stat.ts";
import { CACHE_DIR } from "./parse-cache.ts";
import { sha256Text } from "./sha256-text.ts";
import {
  readTreeBasis,
  writeTreeBasis,
  type KnownFile,
} from "./tree-basis-store.ts";
import {
  fileIdentity,
  readTreeIndex,
  writeTreeIndex,
} from "./tree-index-store.ts";
import {
  changesListing,
  indexIdentity,
  PATHS,
  startTree,
  TREE_GIT_SETTINGS,
  type TreeStart,
} from "./tree-listing.ts";
import {
  createPathReader,
  isBasisDelta,
  NS,
  objectFormat,
  stateOf,
  U32,
  type ObjectFormat,
} from "./tree-path-reader.ts";
import {
  deltaText,
  fingerprintText,
  parseChangedPaths,
  parseTreePaths,
  type PathState,
  type TreeEntry,
} from "../core/records/tree-fingerprint.ts";
import {
  isProjectPath,
  type IndexedFile,
  type IndexStat,
  type ParsedTreeIndex,
  type TreeIndexEntry,
} from "../core/records/tree-index.ts";
import type { BigIntStats } from "node:fs";

export interface TreeReading {
  /** `sha256:<hex>` of the working tree's files, or null outside a git repository. */
  fingerprint: string | null;
  /** Per path: the files the fingerprint covers. */
  entries: Map<string, TreeEntry>;
}

/**
 * The working tree as a validation sees it (docs/guards.md): the paths of git's index and the untracked files git
 * does not ignore, without `plan/`, `state.md` and `.claude/playbook/`, each as it is on disk. git only lists the
 * paths: the index's stat data, flags, modes and blob ids are the agent's to write (its shell may write `.git/index`),
 * so none of them says what a file holds. A file's blob id comes from reading it (as it is on disk: no clean filter
 * runs, its program is one a configuration names) or from playbook's own index, which holds the stat each file had
 * when playbook read it, ctime included (no process can set a ctime back). git runs through the runner: the
 * repository's own settings only, so a user's global ignore file hides nothing from the fingerprint.
 *
 * The reading writes playbook's own index and the tree's basis (`tree-basis-store.ts`), which let `treeFingerprint`
 * answer later from git's stat comparison against that index, without reading every file.
 *
 * @throws Error with git's words when git cannot read the tree of a repository (a `.git` exists at or above `root`),
 * or when a file cannot be read.
 */
export function readWorkingTree(
  root: string,
  timeoutMs = 8000,
  since: Since | null = null,
): TreeReading {
  const listed = listTree(root, timeoutMs);
  return listed === null
    ? { fingerprint: null, entries: new Map() }
    : readListedTree(root, timeoutMs, since, listed);
}

/** A listing git made against playbook's own index (`TreeStart`), and what it listed. */
export interface Since {
  start: TreeStart;
  changes: string;
}

/**
 * The working tree's fingerprint, as `readWorkingTree` computes it. When only the repository's index changed since
 * the basis (a `git add`, a commit), git lists the same paths, and the files it lists against playbook's own index
 * read as they did, the fingerprint is the basis's, which then names the new index: nothing is read again.
 *
 * @throws Error as `readWorkingTree` does.
 */
export function readTreeFingerprint(
  root: string,
  timeoutMs: number,
  since: Since | null,
): string | null {
  const listed = listTree(root, timeoutMs);
  if (listed === null) return null;
  const basis = since?.start.basis;
  if (
    since &&
    basis?.pathSet === listed.pathSet &&
    isBasisDelta(root, basis, since.changes) &&
    fileIdentity(since.start.indexFile) === basis.treeIndex
  ) {
    if (listed.index !== null && listed.index === indexIdentity(root))
      writeTreeBasis(root, { ...basis, index: listed.index });
    return basis.fingerprint;
  }
  return readListedTree(root, timeoutMs, since, listed).fingerprint;
}

/** The tree's paths as git lists them (`parseTreePaths`), with the repository's index they were listed from. */
interface ListedTree extends ReturnType<typeof parseTreePaths> {
  /** `indexIdentity` before git listed. */
  index: string | null;
  /** A digest of the covered paths, with their modes and gitlinks' commits: the same text, the same paths. */
  pathSet: string;
}

/**
 * Lists the tree's paths; null outside any git repository.
 *
 * @throws Error with git's words when git cannot read the tree of a repository.
 */
function listTree(root: string, timeoutMs: number): ListedTree | null {
  const index = indexIdentity(root);
  const listed = runGitSync({
    cwd: root,
    args: [...TREE_GIT_SETTINGS, ...PATHS],
    purpose: "read",
    timeoutMs,
  });
  if (listed.status !== 0) {
    // Only where there is no `.git` at all: one git cannot read (a garbled HEAD) is a repository whose code is unknown.
    if (
      /not a git repository/i.test(listed.stderr) &&
      findDotGit(root) === null
    )
      return null;
    throw new Error(`git ls-files: ${gitWords(listed.stderr)}`);
  }
  const parsed = parseTreePaths(listed.stdout);
  // Tracked paths come in the index's order; untracked ones in the order git walked the folders, which may vary.
  const tracked: string[] = [];
  const untracked: string[] = [];
  for (const [path, mode] of parsed.paths)
    if (mode === null) untracked.push(path);
    else tracked.push(`${mode} ${parsed.gitlinks.get(path) ?? ""} ${path}`);
  return {
    ...parsed,
    index,
    pathSet: sha256Text(
      `${tracked.join("\0")}\0\0${untracked.sort().join("\0")}`,
    ),
  };
}

/** The full reading of `readWorkingTree`, from the listed paths. */
function readListedTree(
  root: string,
  timeoutMs: number,
  since: Since | null,
  listing: ListedTree,
): TreeReading {
  const clock = fileClock(join(root, CACHE_DIR, ".tree-clock"));
  const format = objectFormat(root);
  const own = readOwnIndex(root, format, since, timeoutMs);
  const read = createPathReader(
    root,
    format,
    // Where git said which files changed, the others are taken as held; else each file's stat is compared here.
    own?.changed ? new Map() : (own?.held.files ?? new Map()),
    readTreeBasis(root)?.known ?? {},
  );
  // Files written in the same second of the file system's clock as the reading (or later) are listed always: git
  // compares whole seconds, and such a file could be written again within that second after it was read.
  const second = clock === null ? null : (clock / NS) * NS;
  const entries = new Map<string, TreeEntry>();
  const indexEntries: TreeIndexEntry[] = [];
  const delta = new Map<string, PathState>();
  const gitlinks: Record<string, string> = {};
  const untracked: string[] = [];
  const known: Record<string, KnownFile> = {};
  const always = new Map<string, string>();
  const reused: [string, IndexedFile][] = [];
  for (const [path, indexMode] of listing.paths) {
    const held = own?.changed?.has(path) === false && own.held.files.get(path);
    if (held) {
      // Unchanged since playbook's own index was written, by git's comparison with the stat it holds.
      entries.set(path, { path, mode: held.mode, oid: held.oid });
      reused.push([path, held]);
      continue;
    }
    const gitlink = listing.gitlinks.get(path);
    const found = read(path, {
      untracked: indexMode === null,
      gitlink,
      indexMode: indexMode ?? undefined,
    });
    const state = stateOf(found);
    if (state !== "none") entries.set(path, { path, ...state });
    if (found.kind === "file" && second !== null && isBefore(found, second)) {
      indexEntries.push({
        path,
        mode: found.mode,
        oid: found.oid,
        stat: found.indexed ?? toIndexStat(found.stat),
      });
      continue;
    }
    // A path that cannot stand in an index: git lists it on every reading when it is untracked (a nested
    // repository, `sub/`), never when it is the repository index's (`../x`, which names no file of the project).
    if (!isProjectPath(path)) {
      if (indexMode === null) {
        delta.set(path, state);
        untracked.push(path);
      }
      continue;
    }
    // Everything else git lists on every reading, and its state now is kept to compare with.
    delta.set(path, state);
    if (indexMode === null) untracked.push(path);
    if (gitlink !== undefined) gitlinks[path] = gitlink;
    if (
      found.kind === "file" &&
      clock !== null &&
      found.stat.mtimeNs < clock &&
      found.stat.ctimeNs < clock
    )
      known[path] = {
        stat: statId(found.stat),
        mode: found.mode,
        oid: found.oid,
      };
    always.set(path, gitlink ?? "");
    indexEntries.push(
      gitlink !== undefined
        ? { path, mode: "160000", oid: gitlink, stat: null }
        : { path, mode: "100644", oid: "", stat: null },
    );
  }
  const fingerprint = sha256Text(fingerprintText(entries.values()));
  // After a `git add` or a commit no file changed: the index playbook has is the one it would write.
  const treeIndex =
    own !== null &&
    reused.length === own.held.files.size &&
    indexEntries.length === always.size &&
    isSameMap(always, own.held.always)
      ? own.identity
      : writeTreeIndex(
          root,
          [
            ...reused.map(([path, held]) => ({
              path,
              mode: held.mode,
              oid: held.oid,
              stat: held.stat,
            })),
            ...indexEntries,
          ],
          format,
        );
  // The repository's index taken before the listing and again after: one git rewrote meanwhile keeps no basis.
  const { index } = listing;
  if (treeIndex !== null && index !== null && index === indexIdentity(root))
    writeTreeBasis(root, {
      index,
      treeIndex,
      pathSet: listing.pathSet,
      gitlinks,
      untracked,
      delta: deltaText(delta),
      fingerprint,
      known,
    });
  return { fingerprint, entries };
}

/**
 * playbook's own index of the tree and which of its files git lists as changed since it was written (`since`, a
 * listing already made against it, or one made now): null when there is none yet; `changed` null when git could not
 * list against it, and each file's stat is then compared with the index in Node.
 */
function readOwnIndex(
  root: string,
  format: ObjectFormat,
  since: Since | null,
  timeoutMs: number,
): {
  held: ParsedTreeIndex;
  identity: string;
  changed: Set<string> | null;
} | null {
  const oidBytes = format === "sha1" ? 20 : 32;
  let start = since?.start ?? null;
  let changes = since?.changes ?? null;
  let held = start && readTreeIndex(root, oidBytes, start.treeIndex);
  if (!held || start === null) {
    start = startTree(root);
    if (start === null) return null;
    const listed = runGitSync({
      cwd: root,
      ...changesListing(start),
      purpose: "read",
      timeoutMs,
    });
    changes = listed.status === 0 ? listed.stdout : null;
    held = readTreeIndex(root, oidBytes, start.treeIndex);
    if (!held) return null;
  }
  return {
    held,
    identity: start.treeIndex,
    changed:
      changes === null ? null : new Set(parseChangedPaths(changes).paths),
  };
}

function isSameMap(
  a: ReadonlyMap<string, string>,
  b: ReadonlyMap<string, string>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

/** Whether a file was last written before `second` (the start of the reading's second), by its mtime and ctime. */
function isBefore(found: { stat: BigIntStats }, second: bigint): boolean {
  return found.stat.ctimeNs < second && found.stat.mtimeNs < second;
}

function toIndexStat(s: BigIntStats): IndexStat {
  return {
    ctimeS: Number((s.ctimeNs / NS) & U32),
    ctimeN: Number(s.ctimeNs % NS),
    mtimeS: Number((s.mtimeNs / NS) & U32),
    mtimeN: Number(s.mtimeNs % NS),
    dev: Number(s.dev & U32),
    ino: Number(s.ino & U32),
    uid: Number(s.uid & U32),
    gid: Number(s.gid & U32),
    size: Number(s.size & U32),
  };
}

/** What git said, on one line. */
function gitWords(stderr: string): string {
  return (
    stderr
      .trim()
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .join(" ")
      .slice(0, 400) || "it failed without a message"
  );
}
