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
import { readTreeIndex, writeTreeIndex } from "./tree-index-store.ts";
import { indexIdentity, PATHS, TREE_GIT_SETTINGS } from "./tree-listing.ts";
import {
  createPathReader,
  NS,
  objectFormat,
  stateOf,
  U32,
} from "./tree-path-reader.ts";
import {
  deltaText,
  fingerprintText,
  parseTreePaths,
  type PathState,
  type TreeEntry,
} from "../core/records/tree-fingerprint.ts";
import {
  isProjectPath,
  type IndexStat,
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
export function readWorkingTree(root: string, timeoutMs = 8000): TreeReading {
  const clock = fileClock(join(root, CACHE_DIR, ".tree-clock"));
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
      return { fingerprint: null, entries: new Map() };
    throw new Error(`git ls-files: ${gitWords(listed.stderr)}`);
  }
  const format = objectFormat(root);
  const read = createPathReader(
    root,
    format,
    readTreeIndex(root, format === "sha1" ? 20 : 32),
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
  for (const [path, indexed] of parseTreePaths(listed.stdout)) {
    const gitlink = indexed?.mode === "160000" ? indexed.oid : undefined;
    const found = read(path, {
      untracked: indexed === null,
      gitlink,
      indexMode: indexed?.mode,
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
      if (indexed === null) {
        delta.set(path, state);
        untracked.push(path);
      }
      continue;
    }
    // Everything else git lists on every reading, and its state now is kept to compare with.
    delta.set(path, state);
    if (indexed === null) untracked.push(path);
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
    indexEntries.push(
      gitlink !== undefined
        ? { path, mode: "160000", oid: gitlink, stat: null }
        : { path, mode: "100644", oid: "", stat: null },
    );
  }
  const fingerprint = sha256Text(fingerprintText(entries.values()));
  const treeIndex = writeTreeIndex(root, indexEntries, format);
  // The repository's index taken before the listing and again after: one git rewrote meanwhile keeps no basis.
  if (treeIndex !== null && index !== null && index === indexIdentity(root))
    writeTreeBasis(root, {
      index,
      treeIndex,
      gitlinks,
      untracked,
      delta: deltaText(delta),
      fingerprint,
      known,
    });
  return { fingerprint, entries };
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
