import { lstatSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { CACHE_DIR } from "./parse-cache.ts";
import {
  parseTreeIndex,
  toTreeIndex,
  type ParsedTreeIndex,
  type TreeIndexEntry,
} from "../core/records/tree-index.ts";

/**
 * playbook's own index of the working tree (core/records/tree-index.ts), in the runtime folder: only playbook's
 * processes write it, so git's stat comparison against it (`GIT_INDEX_FILE`) compares with what playbook saw, never
 * with what the agent wrote into `.git/index`.
 */
export const TREE_INDEX_FILE = join(CACHE_DIR, "tree-index");

/**
 * A file's identity and state as dev:inode:size:mtime:ctime (nanoseconds), or null when it is not a file. While it
 * is the same, so is the file: any write changes the ctime, which no process can set back, and a file renamed over it
 * has another inode.
 */
export function fileIdentity(path: string): string | null {
  try {
    const s = lstatSync(path, { bigint: true });
    return s.isFile()
      ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
      : null;
  } catch {
    return null;
  }
}

/**
 * What playbook's own index holds (`ParsedTreeIndex`), read from the file whose identity is `identity` when one is
 * given (the index a listing ran against); null when there is none, it does not parse, or it is another file now.
 */
export function readTreeIndex(
  root: string,
  oidBytes: 20 | 32,
  identity?: string,
): ParsedTreeIndex | null {
  const { openSync, fstatSync, readSync, closeSync } =
    process.getBuiltinModule("node:fs");
  let fd: number;
  try {
    fd = openSync(join(root, TREE_INDEX_FILE), "r");
  } catch {
    return null;
  }
  try {
    const s = fstatSync(fd, { bigint: true });
    if (
      identity !== undefined &&
      identity !== `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
    )
      return null;
    const bytes = Buffer.allocUnsafe(Number(s.size));
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) return null;
      read += n;
    }
    return parseTreeIndex(bytes, oidBytes);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes playbook's own index and returns its identity (`fileIdentity`), or null when it could not be written (a
 * sandboxed process, which may not write the runtime folder) or another reading replaced it at once: a basis must
 * name the index written with it.
 */
export function writeTreeIndex(
  root: string,
  entries: readonly TreeIndexEntry[],
  format: "sha1" | "sha256",
): string | null {
  const file = join(root, TREE_INDEX_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  const { createHash } = process.getBuiltinModule("node:crypto");
  const { openSync, writeSync, fstatSync, closeSync, renameSync, rmSync } =
    process.getBuiltinModule("node:fs");
  try {
    const bytes = toTreeIndex(entries, format === "sha1" ? 20 : 32, (b) =>
      createHash(format).update(b).digest(),
    );
    mkdirSync(dirname(file), { recursive: true });
    const fd = openSync(temp, "w", 0o644);
    let written: { dev: bigint; ino: bigint };
    try {
      for (let at = 0; at < bytes.length;)
        at += writeSync(fd, bytes, at, bytes.length - at);
      written = fstatSync(fd, { bigint: true });
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    const s = lstatSync(file, { bigint: true });
    return s.dev === written.dev && s.ino === written.ino
      ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
      : null;
  } catch {
    rmSync(temp, { force: true });
    return null;
  }
}
