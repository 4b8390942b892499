import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  MAX_WRITTEN_LIST_BYTES,
  parseWrittenList,
  toWrittenLine,
  writtenListPath,
} from "../core/archive/written-files.ts";
import { readBounded } from "./read-bounded.ts";

export type WrittenFiles =
  | { status: "ok"; paths: string[] }
  | { status: "missing" }
  | { status: "unusable"; problem: string };

/**
 * The files the agent wrote with its file tools while `playbook` was active (docs/archive.md, step 1). Read no
 * further than 4 MiB; a larger or broken list is `unusable`, with where and why, never thrown.
 */
export function readWrittenFiles(
  projectDir: string,
  playbook: string,
): WrittenFiles {
  const file = writtenListPath(playbook);
  let read: ReturnType<typeof readBounded>;
  try {
    read = readBounded(join(projectDir, file), MAX_WRITTEN_LIST_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { status: "missing" };
    return {
      status: "unusable",
      problem: `${file} cannot be read (${(error as Error).message})`,
    };
  }
  if (read.truncated)
    return {
      status: "unusable",
      problem: `${file} is ${read.size} bytes, more than the ${MAX_WRITTEN_LIST_BYTES} a list of written files may have`,
    };
  const parsed = parseWrittenList(read.text, file);
  return parsed.ok
    ? { status: "ok", paths: parsed.paths }
    : { status: "unusable", problem: parsed.problem };
}

/**
 * Adds `path` to the list of `playbook` unless it is there. Each entry is one `write(2)` to a file opened for
 * appending, which the kernel keeps whole and in order even when hooks of parallel subagents append at the same
 * moment; a read-modify-rename would lose one of two such entries.
 */
export function addWrittenFile(
  projectDir: string,
  playbook: string,
  path: string,
): void {
  const file = join(projectDir, writtenListPath(playbook));
  const line = toWrittenLine(path);
  if (isListed(file, line)) return;
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, "a", 0o644);
  try {
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

/** Whether the list already holds `line` whole (a cheap check: a list too large to read is appended to). */
function isListed(file: string, line: string): boolean {
  try {
    const read = readBounded(file, MAX_WRITTEN_LIST_BYTES);
    return !read.truncated && `\n${read.text}`.includes(`\n${line}`);
  } catch {
    return false;
  }
}

/** Forgets the list of `playbook` once its files are committed. */
export function removeWrittenFiles(projectDir: string, playbook: string): void {
  rmSync(join(projectDir, writtenListPath(playbook)), { force: true });
}
