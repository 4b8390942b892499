import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { PostLoopLock } from "../core/guards/types.ts";
import { writeTextAtomic } from "./atomic-write.ts";

/** `.claude/playbook`, git-ignored: records, grants, locks, sessions, logs, cache. */
export const RUNTIME_DIR = join(".claude", "playbook");
export const LOCK_FILE = join(RUNTIME_DIR, "post-loop.json");

/** The post-loop lock (SPEC §8), or null. An unreadable lock still counts as set: `playbook post-loop` lifts it. */
export function readPostLoopLock(projectDir: string): PostLoopLock | null {
  let text: string;
  try {
    text = readFileSync(join(projectDir, LOCK_FILE), "utf8");
  } catch {
    return null;
  }
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    const str = (key: string) =>
      typeof data[key] === "string" ? data[key] : null;
    return {
      status: str("status") ?? "unknown",
      playbook: str("playbook"),
      pr:
        str("pr") ?? (typeof data["pr"] === "number" ? `#${data["pr"]}` : null),
      at: str("at"),
      session: str("session"),
    };
  } catch {
    return {
      status: "unreadable",
      playbook: null,
      pr: null,
      at: null,
      session: null,
    };
  }
}

function sessionFile(projectDir: string, sessionId: string): string {
  return join(
    projectDir,
    RUNTIME_DIR,
    "sessions",
    `${sessionId.replace(/[^A-Za-z0-9_-]/g, "_")}.json`,
  );
}

/** Repository paths Read in this session, as the init guard remembers them. */
export function readSessionReads(
  projectDir: string,
  sessionId: string,
): string[] {
  try {
    const data = JSON.parse(
      readFileSync(sessionFile(projectDir, sessionId), "utf8"),
    ) as { reads?: unknown };
    return Array.isArray(data.reads)
      ? data.reads.filter((r): r is string => typeof r === "string")
      : [];
  } catch {
    return [];
  }
}

export function addSessionReads(
  projectDir: string,
  sessionId: string,
  paths: readonly string[],
): void {
  const reads = new Set(readSessionReads(projectDir, sessionId));
  for (const path of paths) reads.add(path);
  const file = sessionFile(projectDir, sessionId);
  mkdirSync(dirname(file), { recursive: true });
  writeTextAtomic(file, `${JSON.stringify({ reads: [...reads] })}\n`);
}

export const LOG_DIR = join(RUNTIME_DIR, "logs");
const MAX_LOG_BYTES = 256 * 1024;

/** Appends one line to a log under `.claude/playbook/logs/`, keeping it under 256 KiB (the previous part is `.1`). */
export function appendBoundedLog(
  projectDir: string,
  name: string,
  line: string,
): void {
  const file = join(projectDir, LOG_DIR, name);
  try {
    if (statSync(file).size > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
  } catch {
    mkdirSync(dirname(file), { recursive: true });
  }
  // open + write + close: appendFileSync does the same with option handling that costs twice as much.
  const fd = openSync(file, "a");
  try {
    writeSync(fd, `${line.replace(/[\r\n]+/g, " ")}\n`);
  } finally {
    closeSync(fd);
  }
}
