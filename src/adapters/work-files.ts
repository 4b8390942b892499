import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  readSync,
  renameSync,
  rmSync,
  symlinkSync,
  type BigIntStats,
} from "node:fs";
import { join } from "node:path";
import type { FileMode } from "../core/snapshot/manifest.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { statId } from "./file-stat.ts";
import { openStatedFile } from "./opened-file.ts";

/** A path of the working tree as a snapshot reads it. */
export type WorkFile =
  | { kind: "file"; bytes: Buffer; mode: FileMode; stat: BigIntStats }
  | { kind: "link"; target: string; stat: BigIntStats }
  | { kind: "missing" }
  | { kind: "too-big"; size: number }
  | { kind: "folder" }
  /** A device, a pipe, a socket, or a file that changed into something else while it was read. */
  | { kind: "other" };

/** What a path is before its content is read: enough to tell a file unchanged since a cached reading. */
export type WorkStat =
  | { kind: "file"; stat: BigIntStats; id: string; mode: FileMode }
  | { kind: "link"; stat: BigIntStats; id: string; mode: "120000" }
  | { kind: "missing" }
  | { kind: "folder" }
  /** A device (a sandbox's mount point when it is a character device), a pipe or a socket. */
  | { kind: "other"; characterDevice: boolean };

/** `lstat` of a path under `root`, without following a link at its end. */
export function statWorkFile(root: string, path: string): WorkStat {
  let stat: BigIntStats | undefined;
  try {
    stat = lstatSync(join(root, path), { bigint: true, throwIfNoEntry: false });
  } catch {
    return { kind: "other", characterDevice: false };
  }
  if (stat === undefined) return { kind: "missing" };
  if (stat.isSymbolicLink())
    return { kind: "link", stat, id: statId(stat), mode: "120000" };
  if (stat.isDirectory()) return { kind: "folder" };
  if (!stat.isFile())
    return { kind: "other", characterDevice: stat.isCharacterDevice() };
  return { kind: "file", stat, id: statId(stat), mode: modeOf(stat) };
}

/**
 * Reads a path of the working tree for a snapshot, from a process outside the agent's sandbox: a link is read as a
 * link (its target, never what it points to), a file is opened without following a link and without waiting on a
 * pipe, and must be the file that was stat'ed, lying where the path says. Otherwise a folder the agent swapped for a
 * link meanwhile could make playbook copy a file from outside the project into the store, where the agent may read
 * it.
 */
export function readWorkFile(
  root: string,
  path: string,
  maxBytes: number,
): WorkFile {
  const found = statWorkFile(root, path);
  if (
    found.kind === "missing" ||
    found.kind === "folder" ||
    found.kind === "other"
  )
    return { kind: found.kind };
  const { stat } = found;
  if (found.kind === "link") {
    try {
      return { kind: "link", target: readlinkSync(join(root, path)), stat };
    } catch {
      return { kind: "other" };
    }
  }
  if (stat.size > BigInt(maxBytes))
    return { kind: "too-big", size: Number(stat.size) };
  const file = openStatedFile(root, path, stat);
  if (file === null) return { kind: "other" };
  const { fd, opened } = file;
  try {
    if (opened.size > BigInt(maxBytes))
      return { kind: "too-big", size: Number(opened.size) };
    const bytes = Buffer.allocUnsafe(Number(opened.size));
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return {
      kind: "file",
      bytes: read === bytes.length ? bytes : bytes.subarray(0, read),
      mode: modeOf(opened),
      stat: opened,
    };
  } catch {
    return { kind: "other" };
  } finally {
    closeSync(fd);
  }
}

function modeOf(stat: BigIntStats): FileMode {
  return stat.mode & 0o100n ? "100755" : "100644";
}

/**
 * Writes a file or link of a snapshot back to `root/path`, replacing what is there (a file, or a link, which is
 * replaced rather than followed) by a rename, so a reader sees the old content or the new. Every folder on the way
 * must be a real folder inside the project (missing ones are made): a link there could lead the write out of it.
 *
 * @throws Error when a folder on the way is a link or a file, or the write fails.
 */
export function writeWorkFile(
  root: string,
  path: string,
  content: Buffer,
  mode: FileMode,
): void {
  const steps = path.split("/");
  const name = steps.pop() ?? "";
  let dir = root;
  for (const step of steps) {
    dir = join(dir, step);
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (stat === undefined) mkdirSync(dir);
    else if (!stat.isDirectory())
      throw new Error(
        `${dir.slice(root.length + 1)} is ${stat.isSymbolicLink() ? "a link" : "not a folder"} now`,
      );
  }
  const target = join(dir, name);
  if (lstatSync(target, { throwIfNoEntry: false })?.isDirectory())
    throw new Error("a folder is there now");
  if (mode === "120000") {
    const temp = join(dir, `.${name}.${process.pid}.undo-link`);
    rmSync(temp, { force: true });
    symlinkSync(content.toString("utf8"), temp);
    try {
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    return;
  }
  // A link at the target is replaced, not followed: remove it first, so the atomic write does not resolve it.
  if (lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink())
    rmSync(target);
  writeTextAtomic(target, content);
  // git keeps only whether a file is executable: the rest of the permissions stay as the file (or the umask) has them.
  const now = lstatSync(target).mode & 0o777;
  const wanted = mode === "100755" ? now | ((now & 0o444) >> 2) : now & ~0o111;
  if (wanted !== now) chmodSync(target, wanted);
}
