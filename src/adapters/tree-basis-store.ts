import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeTextAtomic } from "./atomic-write.ts";
import { CACHE_DIR } from "./parse-cache.ts";

/**
 * The last full reading of the working tree (adapters/tree-fingerprint.ts): which repository index and which of
 * playbook's own indexes it was read with, what the paths git lists on every later reading were then, and the
 * fingerprint. It lies in the runtime folder, which only playbook's own processes may write
 * (docs/trust-boundary.md): the agent cannot plant a basis that names a tree it does not have.
 */
export interface TreeBasis {
  /** The repository's index file, as `indexIdentity` names it: a `git add` or commit reads the tree again. */
  index: string;
  /** playbook's own index written with this basis (tree-index-store.ts), by the same identity. */
  treeIndex: string;
  /** The digest of the paths git listed (tree-reading.ts): with the same paths, a new repository index changes nothing. */
  pathSet: string;
  /** Gitlinks (submodules) by path, with the commit the repository's index named: read on every tick. */
  gitlinks: Record<string, string>;
  /** The untracked paths among `delta` (a sandbox's mount point there is not code). */
  untracked: string[];
  /** What the paths playbook's own index lists always were (`deltaText`). */
  delta: string;
  fingerprint: string;
  /**
   * Files among `delta` read from disk whose stat (inode, size, mode, mtime and ctime in nanoseconds) was older than
   * the reading: while a file's stat is the same, its blob id is too (any write changes the ctime, which no process
   * can set back), so a tick need not hash it again.
   */
  known: Record<string, KnownFile>;
}

export interface KnownFile {
  stat: string;
  mode: string;
  oid: string;
}

const FILE = join(CACHE_DIR, ".tree-basis.json");

/** The basis, or null when there is none or it is not one this version wrote. */
export function readTreeBasis(root: string): TreeBasis | null {
  try {
    const data = JSON.parse(readFileSync(join(root, FILE), "utf8")) as Record<
      string,
      unknown
    >;
    const {
      index,
      treeIndex,
      pathSet,
      gitlinks,
      untracked,
      delta,
      fingerprint,
      known,
    } = data;
    return typeof index === "string" &&
      typeof treeIndex === "string" &&
      typeof pathSet === "string" &&
      typeof delta === "string" &&
      typeof fingerprint === "string" &&
      isStrings(untracked) &&
      isRecordOf(gitlinks, (v): v is string => typeof v === "string")
      ? {
          index,
          treeIndex,
          pathSet,
          gitlinks,
          untracked,
          delta,
          fingerprint,
          known: isRecordOf(known, isKnownFile) ? known : {},
        }
      : null;
  } catch {
    return null;
  }
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((p) => typeof p === "string");
}

function isRecordOf<T>(
  value: unknown,
  check: (v: unknown) => v is T,
): value is Record<string, T> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every(check)
  );
}

function isKnownFile(f: unknown): f is KnownFile {
  return (
    typeof f === "object" &&
    f !== null &&
    typeof (f as KnownFile).stat === "string" &&
    typeof (f as KnownFile).mode === "string" &&
    typeof (f as KnownFile).oid === "string"
  );
}

/** Keeps the basis; a process that may not write the runtime folder (a sandboxed one) simply keeps none. */
export function writeTreeBasis(root: string, basis: TreeBasis): void {
  const file = join(root, FILE);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeTextAtomic(file, JSON.stringify(basis), { durable: false });
  } catch {
    // Only a speed-up: the next reading lists the whole tree.
  }
}
