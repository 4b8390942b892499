import { lstatSync, readlinkSync, type BigIntStats } from "node:fs";
import { join } from "node:path";
import { findDotGit, readRepositoryLayout, runGitSync } from "./git-runner.ts";
import { fileClock, isSettled, statId } from "./file-stat.ts";
import { CACHE_DIR } from "./parse-cache.ts";
import { isPlaceholderOnDisk } from "./placeholder-check.ts";
import { sha256Text } from "./sha256-text.ts";
import { writeTreeBasis, type KnownFile } from "./tree-basis-store.ts";
import {
  indexIdentity,
  LISTING,
  startFromBasis,
  startTreeListing,
  TREE_GIT_SETTINGS,
  WORKTREE,
  type BasisStart,
  type TreeListing,
} from "./tree-listing.ts";
import {
  applyDelta,
  deltaText,
  fingerprintText,
  parseListedTree,
  type PathState,
  type TreeEntry,
} from "../core/records/tree-fingerprint.ts";

export interface TreeReading {
  /** `sha256:<hex>` of the working tree's files, or null outside a git repository. */
  fingerprint: string | null;
  /** Per path (per stage for unmerged paths): the files the fingerprint covers. */
  entries: Map<string, TreeEntry>;
}

type Git = (
  args: string[],
  input?: string,
) => { status: number | null; stdout: string; stderr: string };

function gitIn(root: string, timeoutMs: number): Git {
  return (args, input) =>
    runGitSync({
      cwd: root,
      args: [...TREE_GIT_SETTINGS, ...args],
      purpose: "read",
      timeoutMs,
      ...(input === undefined ? {} : { input }),
    });
}

/**
 * The working tree as a validation sees it (docs/guards.md): tracked files at their current content plus untracked
 * files git does not ignore, without `plan/`, `state.md` and `.claude/playbook/`. One `git ls-files` reads the index
 * and stats the tree (unchanged files keep the blob id the index has); only modified and untracked files are hashed,
 * here, as they are on disk: no clean filter runs (its program is one a configuration names). Files git is told not
 * to look at (assume-unchanged, skip-worktree) are hashed too. git runs through the runner: the repository's own
 * settings only, so a user's global ignore file hides nothing from the fingerprint.
 *
 * The reading is kept as the tree's basis (`tree-basis-store.ts`), which lets `treeFingerprint` answer later from the
 * changed files alone while the index stays the same.
 *
 * @throws Error with git's words when git cannot read the tree of a repository (a `.git` exists at or above `root`).
 */
export function readWorkingTree(root: string, timeoutMs = 8000): TreeReading {
  const git = gitIn(root, timeoutMs);
  const clock = fileClock(join(root, CACHE_DIR, ".tree-clock"));
  const index = indexIdentity(root);
  const listed = git([...LISTING, "-s", "-c", ...WORKTREE]);
  if (listed.status !== 0) {
    // Only where there is no `.git` at all: one git cannot read (a garbled HEAD) is a repository whose code is unknown.
    if (
      /not a git repository/i.test(listed.stderr) &&
      findDotGit(root) === null
    )
      return { fingerprint: null, entries: new Map() };
    throw new Error(`git ls-files: ${gitWords(listed.stderr)}`);
  }
  const { entries, changed, deleted, unwatched, untracked } = parseListedTree(
    listed.stdout,
  );
  const { delta, hashed } = readDelta(root, objectFormat(root), {
    changed,
    deleted,
    unwatched,
    untracked,
    indexMode: (path) => entries.get(path)?.mode,
    known: {},
  });
  const fingerprint = sha256Text(
    fingerprintText(applyDelta(entries, delta).values()),
  );
  // Taken before the listing and again after: an index git rewrote meanwhile keeps no basis.
  if (index !== null && index === indexIdentity(root))
    writeTreeBasis(root, {
      index,
      unwatched,
      delta: deltaText(delta),
      fingerprint,
      known: knownFiles(hashed, clock),
    });
  return { fingerprint, entries };
}

/**
 * The working tree's fingerprint, as `readWorkingTree` computes it. While git's index is the one the basis was read
 * with (same file, size, mtime and ctime, which no process can set back), the tree differs from the basis only where
 * `git ls-files -m -o -d` and the unwatched files say: when those read the same, the fingerprint is the basis's. In
 * a 10,000-file repository that saves listing and hashing every entry on each tick.
 *
 * @throws Error when git fails inside a repository.
 */
export function treeFingerprint(root: string, timeoutMs = 8000): string | null {
  const start = startFromBasis(root);
  if (start !== null) {
    const git = gitIn(root, timeoutMs);
    const listed = git([...LISTING, ...WORKTREE]);
    const answer =
      listed.status === 0 ? answerFromBasis(root, start, listed.stdout) : null;
    if (answer !== null) return answer;
  }
  return readWorkingTree(root, timeoutMs).fingerprint;
}

/**
 * `treeFingerprint`, started now and answered later: git lists the changed files while the caller does other work
 * (the hook reads records and state meanwhile). `listing` is one started earlier still, by the hook's loader.
 * `cancel` stops git when the answer is not needed after all.
 */
export function treeFingerprintSoon(
  root: string,
  timeoutMs = 8000,
  listing: TreeListing | null = startTreeListing(root, timeoutMs),
): { result: Promise<string | null>; cancel: () => void } {
  if (listing === null)
    return {
      result: Promise.resolve().then(
        () => readWorkingTree(root, timeoutMs).fingerprint,
      ),
      cancel: () => {},
    };
  let cancelled = false;
  return {
    result: listing.stdout.then((stdout) => {
      if (cancelled) return null;
      const answer =
        stdout === null ? null : answerFromBasis(root, listing.start, stdout);
      return answer ?? readWorkingTree(root, timeoutMs).fingerprint;
    }),
    cancel: () => {
      cancelled = true;
      listing.cancel();
    },
  };
}

/** The basis's fingerprint when the changed files read as they did then and the index is still the same, else null. */
function answerFromBasis(
  root: string,
  { index, basis }: BasisStart,
  listing: string,
): string | null {
  const { changed, deleted, untracked } = parseListedTree(listing);
  const { delta } = readDelta(root, objectFormat(root), {
    changed: [...new Set([...changed, ...basis.unwatched])],
    deleted,
    unwatched: basis.unwatched,
    untracked,
    // Without `-s -c` the listing has no index entries: a Windows file's mode is unknown, and a miss reads in full.
    indexMode: () => undefined,
    known: basis.known,
  });
  return deltaText(delta) === basis.delta && indexIdentity(root) === index
    ? basis.fingerprint
    : null;
}

/** A file read from disk for the fingerprint, with the stat it had before it was read. */
interface HashedFile {
  path: string;
  mode: string;
  oid: string;
  stat: BigIntStats;
}

/**
 * What the disk says about each changed and deleted path (see `PathState`). A file whose stat is the one `known`
 * keeps for it is not read again.
 */
function readDelta(
  root: string,
  format: ObjectFormat,
  listed: {
    changed: readonly string[];
    deleted: readonly string[];
    unwatched: readonly string[];
    untracked: ReadonlySet<string>;
    indexMode: (path: string) => string | undefined;
    known: Readonly<Record<string, KnownFile>>;
  },
): { delta: Map<string, PathState>; hashed: HashedFile[] } {
  const { changed, deleted, unwatched, untracked, indexMode, known } = listed;
  const delta = new Map<string, PathState>();
  for (const path of deleted) delta.set(path, "absent");
  const blob = (content: string) =>
    process
      .getBuiltinModule("node:crypto")
      .createHash(format)
      .update(`blob ${Buffer.byteLength(content)}\0`)
      .update(content)
      .digest("hex");
  const files: { path: string; mode: string; stat: BigIntStats }[] = [];
  for (const path of changed) {
    // A sandbox's mount point, there only while a sandboxed command runs: not part of the code.
    if (untracked.has(path) && isPlaceholderOnDisk(root, path)) {
      delta.set(path, "index");
      continue;
    }
    let stat;
    try {
      stat = lstatSync(join(root, path), { bigint: true });
    } catch {
      // A skip-worktree file outside the sparse checkout is not on disk, and its index entry is what git commits.
      delta.set(path, unwatched.includes(path) ? "index" : "absent");
      continue;
    }
    if (stat.isSymbolicLink())
      delta.set(path, {
        mode: "120000",
        oid: blob(readlinkSync(join(root, path))),
      });
    else if (stat.isFile()) {
      const mode =
        process.platform === "win32"
          ? (indexMode(path) ?? "100644")
          : stat.mode & 0o100n
            ? "100755"
            : "100644";
      const prior = known[path];
      if (prior?.stat === statId(stat) && prior.mode === mode)
        delta.set(path, { mode, oid: prior.oid });
      else files.push({ path, mode, stat });
    } else delta.set(path, "index");
  }
  for (const f of files)
    delta.set(f.path, {
      mode: f.mode,
      oid: hashFile(join(root, f.path), format),
    });
  const hashed = files.flatMap((f) => {
    const state = delta.get(f.path);
    return typeof state === "object" ? [{ ...f, oid: state.oid }] : [];
  });
  return { delta, hashed };
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

/** The hash git names objects with in this repository (`extensions.objectFormat`). */
type ObjectFormat = "sha1" | "sha256";

function objectFormat(root: string): ObjectFormat {
  return readRepositoryLayout(root)?.sha256 ? "sha256" : "sha1";
}

/**
 * A file's blob id as it is on disk, read in chunks: without git's filters, whose programs the agent may have named
 * (a clean filter in a configuration it wrote, selected by a `.gitattributes` line). Hashed here rather than by
 * `git hash-object --no-filters`: a git process cost a tick 2.5-7 ms more (docs/decisions.md).
 */
function hashFile(path: string, format: ObjectFormat): string {
  const { openSync, readSync, closeSync, fstatSync } =
    process.getBuiltinModule("node:fs");
  const hash = process.getBuiltinModule("node:crypto").createHash(format);
  const fd = openSync(path, "r");
  try {
    const length = fstatSync(fd).size;
    hash.update(`blob ${length}\0`);
    const buffer = Buffer.allocUnsafe(Math.min(length, 1 << 20) || 1);
    let read = 0;
    while (read < length) {
      const n = readSync(
        fd,
        buffer,
        0,
        Math.min(buffer.length, length - read),
        null,
      );
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      read += n;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/**
 * The files a later tick may take from the basis without reading them: those last written before the reading
 * began. A file written in the same tick of the file system's clock as the reading could be written again within
 * that tick after it was read, keeping its stat, so it is always read again (git's "racily clean" rule).
 */
function knownFiles(
  hashed: readonly HashedFile[],
  clock: bigint | null,
): Record<string, KnownFile> {
  const known: Record<string, KnownFile> = {};
  for (const f of hashed)
    if (isSettled(f.stat, clock))
      known[f.path] = { stat: statId(f.stat), mode: f.mode, oid: f.oid };
  return known;
}
