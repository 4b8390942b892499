import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { dirname, join } from "node:path";
import {
  toSessionState,
  type SessionState,
} from "../core/session/session-state.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { RUNTIME_DIR } from "./runtime-files.ts";

const SESSIONS_DIR = join(RUNTIME_DIR, "sessions");

/** `<id><suffix>` in the sessions folder; ids are reduced to safe file-name characters. */
function sessionFile(
  projectDir: string,
  sessionId: string,
  suffix: string,
): string {
  return join(
    projectDir,
    SESSIONS_DIR,
    `${sessionId.replace(/[^A-Za-z0-9_-]/g, "_")}${suffix}`,
  );
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  // Scratch state: checked against a schema on read, so a write lost to a power cut only resets it.
  writeTextAtomic(file, `${JSON.stringify(value)}\n`, { durable: false });
}

/** Repository paths Read in this session, as the init guard remembers them. */
export function readSessionReads(
  projectDir: string,
  sessionId: string,
): string[] {
  const data = readJson(sessionFile(projectDir, sessionId, ".json")) as
    { reads?: unknown } | undefined;
  return Array.isArray(data?.reads)
    ? data.reads.filter((r): r is string => typeof r === "string")
    : [];
}

export function addSessionReads(
  projectDir: string,
  sessionId: string,
  paths: readonly string[],
): void {
  const reads = new Set(readSessionReads(projectDir, sessionId));
  for (const path of paths) reads.add(path);
  writeJson(sessionFile(projectDir, sessionId, ".json"), { reads: [...reads] });
}

/** The session's state, or null when playbook has never seen it; a corrupt file reads as an empty state. */
export function readSessionState(
  projectDir: string,
  sessionId: string,
): SessionState | null {
  const json = readJson(sessionFile(projectDir, sessionId, ".state.json"));
  return json === undefined ? null : toSessionState(json);
}

export function writeSessionState(
  projectDir: string,
  sessionId: string,
  state: SessionState,
): void {
  writeJson(sessionFile(projectDir, sessionId, ".state.json"), state);
}

/** The compaction snapshot PreCompact saved for the session, as raw JSON (undefined when missing or unreadable). */
export function readCompactSnapshot(
  projectDir: string,
  sessionId: string,
): {
  found: boolean;
  json: unknown;
} {
  const file = sessionFile(projectDir, sessionId, ".compact.json");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { found: false, json: undefined };
  }
  try {
    return { found: true, json: JSON.parse(text) };
  } catch {
    return { found: true, json: undefined };
  }
}

export function writeCompactSnapshot(
  projectDir: string,
  sessionId: string,
  snapshot: unknown,
): void {
  writeJson(sessionFile(projectDir, sessionId, ".compact.json"), snapshot);
}

/** Every session with a state file, by id (as stored). */
export function listSessionStates(
  projectDir: string,
): { id: string; state: SessionState }[] {
  let names: string[];
  try {
    names = readdirSync(join(projectDir, SESSIONS_DIR));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".state.json"))
    .map((name) => {
      const id = name.slice(0, -".state.json".length);
      return {
        id,
        state: toSessionState(readJson(join(projectDir, SESSIONS_DIR, name))),
      };
    });
}

/** Removes the files of sessions untouched for `days`, so the folder does not grow without end. */
export function pruneSessionFiles(
  projectDir: string,
  days: number,
  now: Date,
): number {
  const dir = join(projectDir, SESSIONS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = join(dir, name);
    try {
      if (now.getTime() - statSync(file).mtimeMs > days * 86_400_000) {
        rmSync(file, { force: true });
        removed++;
      }
    } catch {
      // Another session may be pruning the same files.
    }
  }
  return removed;
}
