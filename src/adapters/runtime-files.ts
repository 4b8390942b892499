import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { LockPending, PostLoopLock } from "../core/guards/types.ts";
import { writeTextAtomic } from "./atomic-write.ts";

/** `.claude/playbook`, git-ignored: records, grants, locks, sessions, logs, cache. */
export const RUNTIME_DIR = join(".claude", "playbook");
const LOCK_FILE = join(RUNTIME_DIR, "post-loop.json");

/** The post-loop lock (docs/archive.md), or null. An unreadable lock still counts as set: `playbook post-loop` lifts it. */
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
      pending: pendingOf(data["pending"]),
    };
  } catch {
    return {
      status: "unreadable",
      playbook: null,
      pr: null,
      at: null,
      session: null,
      pending: null,
    };
  }
}

function pendingOf(value: unknown): LockPending | null {
  if (typeof value !== "object" || value === null) return null;
  const { kind, what, next } = value as Record<string, unknown>;
  return typeof kind === "string" &&
    typeof what === "string" &&
    typeof next === "string"
    ? { kind, what, next }
    : null;
}

/** Sets the post-loop lock (docs/archive.md step 8), flushed to disk: it decides what the agent may do next. */
export function writePostLoopLock(
  projectDir: string,
  lock: PostLoopLock,
): void {
  const file = join(projectDir, LOCK_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeTextAtomic(file, `${JSON.stringify(lock, null, 2)}\n`);
}

/** Removes the post-loop lock, keeping what it said in `logs/locks.log`. */
export function clearPostLoopLock(
  projectDir: string,
  why: string,
  at: string,
): void {
  const file = join(projectDir, LOCK_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return;
  }
  appendBoundedLog(
    projectDir,
    "locks.log",
    `${at}\tcleared\t${why}\t${text.replace(/\s+/g, " ")}`,
  );
  rmSync(file, { force: true });
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

/**
 * The archive that stopped before finishing, as the guards need it: its branch and playbook. A light read of the
 * journal (no schema: the hook bundle stays small); anything unreadable counts as none.
 */
export function readUnfinishedArchive(projectDir: string): {
  branch: string;
  playbook: string;
  /** What its merge waits for, when `archive.merge` left it to GitHub or a person. */
  pending: LockPending | null;
} | null {
  try {
    const json = JSON.parse(
      readFileSync(
        join(projectDir, RUNTIME_DIR, "archive-journal.json"),
        "utf8",
      ),
    ) as {
      status?: unknown;
      branch?: unknown;
      playbook?: unknown;
      pending?: unknown;
    };
    return json.status !== "success" &&
      typeof json.branch === "string" &&
      typeof json.playbook === "string"
      ? {
          branch: json.branch,
          playbook: json.playbook,
          pending: json.status === "pending" ? pendingOf(json.pending) : null,
        }
      : null;
  } catch {
    return null;
  }
}

/**
 * Set by SessionStart when `.claude/settings.json` runs playbook's PreToolUse hook without `"onFailure": "block"`
 * (a hook that crashes or times out would let the call through): holds the reason; absent when the settings are
 * sound. Removed by the next SessionStart that finds them sound, or by `playbook init`.
 */
const FAIL_OPEN_FILE = join(RUNTIME_DIR, "settings-fail-open");

/** Why the settings let a failed hook through, or null. */
export function readFailOpen(projectDir: string): string | null {
  try {
    return (
      readFileSync(join(projectDir, FAIL_OPEN_FILE), "utf8").trim() || null
    );
  } catch {
    return null;
  }
}

/** Records (or, with null, clears) why the settings let a failed hook through. */
export function writeFailOpen(projectDir: string, reason: string | null): void {
  const file = join(projectDir, FAIL_OPEN_FILE);
  if (reason === null) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeTextAtomic(file, `${reason}\n`);
}
