import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import {
  localBoundaryRecordSchema,
  type LocalBoundaryRecord,
} from "../core/scaffold/local-boundary-record.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { readBounded } from "./read-bounded.ts";
import { RUNTIME_DIR } from "./runtime-files.ts";

/** This machine's Claude Code settings: masked inside the sandbox, denied to the file tools. */
export const LOCAL_SETTINGS_FILE = join(".claude", "settings.local.json");
/** What the hook added to them, in the trust paths: only that is ever taken out again. */
const LOCAL_BOUNDARY_FILE = join(RUNTIME_DIR, "local-boundary.json");

const MAX_BYTES = 1024 * 1024;

/** The record of what playbook added to settings.local.json; undefined when none (or unreadable: re-derived). */
export function readLocalBoundaryRecord(
  projectDir: string,
): LocalBoundaryRecord | undefined {
  const text = readSmall(join(projectDir, LOCAL_BOUNDARY_FILE));
  if (text === null) return undefined;
  try {
    const parsed = v.safeParse(localBoundaryRecordSchema, JSON.parse(text));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** settings.local.json's text, or null when there is none; a file too large to be settings counts as unreadable. */
export function readLocalSettings(projectDir: string): string | null {
  return readSmall(join(projectDir, LOCAL_SETTINGS_FILE));
}

/**
 * Writes the settings first, then the record (null: none left), so a record never claims entries the settings lack.
 * The settings are written in place, not renamed over: Claude Code's watcher was seen reloading an in-place write.
 */
export function writeLocalBoundary(
  projectDir: string,
  settingsText: string | null,
  record: LocalBoundaryRecord | null,
): void {
  if (settingsText !== null) {
    const file = join(projectDir, LOCAL_SETTINGS_FILE);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, settingsText);
  }
  const recordFile = join(projectDir, LOCAL_BOUNDARY_FILE);
  if (record === null) {
    rmSync(recordFile, { force: true });
    return;
  }
  mkdirSync(dirname(recordFile), { recursive: true });
  writeTextAtomic(recordFile, `${JSON.stringify(record)}\n`);
}

function readSmall(file: string): string | null {
  try {
    const read = readBounded(file, MAX_BYTES);
    return read.truncated ? null : read.text;
  } catch {
    return null;
  }
}

/** Marks that a SessionStart of `sessionId` changed the settings, which Claude Code may not be watching yet. */
const RELOAD_PENDING_FILE = join(RUNTIME_DIR, "local-boundary-pending");

export function markReloadPending(projectDir: string, sessionId: string): void {
  writeTextAtomic(join(projectDir, RELOAD_PENDING_FILE), sessionId, {
    durable: false,
  });
}

/**
 * Whether `sessionId`'s start left a reload pending; the mark is taken either way. A session's first shell command
 * then writes the settings again, so a change made before Claude Code's watcher was ready is seen after all.
 */
export function takeReloadPending(
  projectDir: string,
  sessionId: string,
): boolean {
  const file = join(projectDir, RELOAD_PENDING_FILE);
  const text = readSmall(file);
  if (text === null) return false;
  rmSync(file, { force: true });
  return text === sessionId;
}

/** Writes settings.local.json again as it is, for Claude Code's watcher. */
export function touchLocalSettings(projectDir: string): void {
  const text = readLocalSettings(projectDir);
  if (text !== null) writeFileSync(join(projectDir, LOCAL_SETTINGS_FILE), text);
}
