import {
  closeSync,
  lstatSync,
  readlinkSync,
  readSync,
  type BigIntStats,
} from "node:fs";
import { join } from "node:path";
import { isPastDeadline } from "./process-deadline.ts";
import { readRepositoryLayout } from "./git-runner.ts";
import { statId } from "./file-stat.ts";
import { openStatedFile } from "./opened-file.ts";
import { isPlaceholderOnDisk } from "./placeholder-check.ts";
import type { KnownFile, TreeBasis } from "./tree-basis-store.ts";
import {
  deltaText,
  parseChangedPaths,
  type PathState,
} from "../core/records/tree-fingerprint.ts";
import {
  isProjectPath,
  type IndexedFile,
  type IndexStat,
} from "../core/records/tree-index.ts";

/** What a path was found to be (see `PathState`), with the stat a file or link had before it was read. */
export type Found =
  | {
      kind: "file";
      mode: string;
      oid: string;
      stat: BigIntStats;
      /** Its entry in playbook's own index, when the file was taken from there by its stat. */
      indexed?: IndexStat;
    }
  | { kind: "gitlink"; oid: string }
  | { kind: "none" };

export function stateOf(found: Found): PathState {
  return found.kind === "file"
    ? { mode: found.mode, oid: found.oid }
    : found.kind === "gitlink"
      ? { mode: "160000", oid: found.oid }
      : "none";
}

export const NS = 1_000_000_000n;
export const U32 = 0xffffffffn;

/** Whether `s` is the stat an entry of playbook's own index holds, to the nanosecond. */
function isSameStat(e: IndexStat, s: BigIntStats): boolean {
  return (
    Number(s.size & U32) === e.size &&
    Number(s.ino & U32) === e.ino &&
    s.ctimeNs === BigInt(e.ctimeS) * NS + BigInt(e.ctimeN) &&
    s.mtimeNs === BigInt(e.mtimeS) * NS + BigInt(e.mtimeN) &&
    Number(s.dev & U32) === e.dev &&
    Number(s.uid & U32) === e.uid &&
    Number(s.gid & U32) === e.gid
  );
}

/**
 * Reads what each path is on disk. A file whose stat is the one playbook's own index (`indexed`) or the basis's
 * `known` holds is not read again; any other is opened without following a link or waiting on a pipe, and must be the
 * file that was stat'ed, where the path says (not reached through a folder swapped for a link).
 */
export function createPathReader(
  root: string,
  format: ObjectFormat,
  indexed: ReadonlyMap<string, IndexedFile>,
  known: Readonly<Record<string, KnownFile>>,
): (
  path: string,
  from: {
    untracked: boolean;
    gitlink: string | undefined;
    indexMode: string | undefined;
  },
) => Found {
  const none: Found = { kind: "none" };
  return (path, { untracked, gitlink, indexMode }) => {
    if (!isProjectPath(path)) return none;
    let stat: BigIntStats | undefined;
    try {
      stat = lstatSync(join(root, path), {
        bigint: true,
        throwIfNoEntry: false,
      });
    } catch {
      // ENOTDIR: a file where the path has a folder.
      return none;
    }
    if (stat === undefined) {
      // git writes names as bytes, and a name that is not UTF-8 cannot be found again from the text: its file would
      // fall out of the fingerprint unread.
      if (path.includes("\uFFFD"))
        throw new Error(
          `${path} is a file name that is not UTF-8, which playbook cannot read: rename it`,
        );
      return none;
    }
    if (stat.isDirectory())
      return gitlink === undefined ? none : { kind: "gitlink", oid: gitlink };
    const link = stat.isSymbolicLink();
    if (!link && !stat.isFile()) return none;
    // A sandbox's mount point, there only while a sandboxed command runs: not part of the code.
    if (untracked && stat.size === 0n && isPlaceholderOnDisk(root, path))
      return none;
    const mode = link
      ? "120000"
      : process.platform === "win32"
        ? (indexMode ?? "100644")
        : stat.mode & 0o100n
          ? "100755"
          : "100644";
    const held = indexed.get(path);
    const heldStat = held?.mode === mode ? held.stat : undefined;
    if (held && heldStat && isSameStat(heldStat, stat))
      return { kind: "file", mode, oid: held.oid, stat, indexed: heldStat };
    const prior = known[path];
    if (prior?.mode === mode && prior.stat === statId(stat))
      return { kind: "file", mode, oid: prior.oid, stat };
    const oid = link
      ? readLinkBlob(join(root, path), format)
      : hashFile(root, path, stat, format);
    return oid === null ? none : { kind: "file", mode, oid, stat };
  };
}

/** The hash git names objects with in this repository (`extensions.objectFormat`). */
export type ObjectFormat = "sha1" | "sha256";

export function objectFormat(root: string): ObjectFormat {
  return readRepositoryLayout(root)?.sha256 ? "sha256" : "sha1";
}

function blobHash(format: ObjectFormat, length: number) {
  return process
    .getBuiltinModule("node:crypto")
    .createHash(format)
    .update(`blob ${length}\0`);
}

function readLinkBlob(path: string, format: ObjectFormat): string | null {
  try {
    const target = readlinkSync(path, { encoding: "buffer" });
    return blobHash(format, target.length).update(target).digest("hex");
  } catch {
    return null;
  }
}

/**
 * A file's blob id as it is on disk, read in chunks: without git's filters, whose programs the agent may have named
 * (a clean filter in a configuration it wrote, selected by a `.gitattributes` line). Hashed here rather than by
 * `git hash-object --no-filters`: a git process cost a tick 2.5-7 ms more (docs/decisions.md). Null when the file
 * opened is not the one `stat` describes, where the path says: something else was put there meanwhile.
 */
function hashFile(
  root: string,
  path: string,
  stat: BigIntStats,
  format: ObjectFormat,
): string | null {
  const file = openStatedFile(root, path, stat);
  if (file === null) return null;
  const { fd, opened } = file;
  try {
    const length = Number(opened.size);
    const hash = blobHash(format, length);
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
      // Cut short while read: its stat, kept with this id, has changed and will not match again.
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      read += n;
      // A file as large as the agent likes (a sparse one costs no disk) must not hold the hook past its time.
      if (isPastDeadline())
        throw new Error(
          `reading the working tree took longer than the hook's time (\`${path}\` holds ${length.toLocaleString("en")} bytes)`,
        );
    }
    return hash.digest("hex");
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the paths git listed against playbook's own index (`listing`) read as they did when `basis` was written:
 * the files it lists always, the gitlinks, and nothing else (a file changed since, or a new untracked file, is a path
 * the basis does not know).
 */
export function isBasisDelta(
  root: string,
  basis: TreeBasis,
  listing: string,
): boolean {
  const { paths, untracked } = parseChangedPaths(listing);
  const read = createPathReader(
    root,
    objectFormat(root),
    new Map(),
    basis.known,
  );
  const placeholders = new Set([...untracked, ...basis.untracked]);
  const delta = new Map<string, PathState>();
  for (const path of new Set([...paths, ...Object.keys(basis.gitlinks)]))
    delta.set(
      path,
      stateOf(
        read(path, {
          untracked: placeholders.has(path),
          gitlink: basis.gitlinks[path],
          indexMode: undefined,
        }),
      ),
    );
  return deltaText(delta) === basis.delta;
}
