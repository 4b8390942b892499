import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeTextAtomic } from "./atomic-write.ts";
import { CACHE_DIR } from "./parse-cache.ts";

/**
 * The last full reading of the working tree (adapters/tree-fingerprint.ts): which index it read, the paths it read
 * from disk and what they were, and the fingerprint. It lies in the runtime folder, which only playbook's own
 * processes may write (docs/trust-boundary.md): the agent cannot plant a basis that names a tree it does not have.
 */
export interface TreeBasis {
  index: string;
  unwatched: string[];
  delta: string;
  fingerprint: string;
  /**
   * Changed files read from disk whose stat (inode, size, mode, mtime and ctime in nanoseconds) was older than the
   * reading: while a file's stat is the same, its blob id is too (any write changes the ctime, which no process can
   * set back), so a tick need not hash it again.
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
    const { index, unwatched, delta, fingerprint, known } = data;
    return typeof index === "string" &&
      typeof delta === "string" &&
      typeof fingerprint === "string" &&
      Array.isArray(unwatched) &&
      unwatched.every((p) => typeof p === "string")
      ? {
          index,
          unwatched,
          delta,
          fingerprint,
          known: isKnownFiles(known) ? known : {},
        }
      : null;
  } catch {
    return null;
  }
}

function isKnownFiles(value: unknown): value is Record<string, KnownFile> {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.values(value).every(
      (f: unknown) =>
        typeof f === "object" &&
        f !== null &&
        typeof (f as KnownFile).stat === "string" &&
        typeof (f as KnownFile).mode === "string" &&
        typeof (f as KnownFile).oid === "string",
    )
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
