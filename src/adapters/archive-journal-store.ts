import { mkdirSync, readFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  toArchiveHistory,
  withArchive,
  type ArchiveHistory,
} from "../core/archive/archive-history.ts";
import {
  toArchiveJournal,
  type ArchiveJournal,
} from "../core/archive/journal.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { RUNTIME_DIR } from "./runtime-files.ts";

const JOURNAL_FILE = join(RUNTIME_DIR, "archive-journal.json");
export const HISTORY_FILE = join(RUNTIME_DIR, "archive-history.json");

export type StoredJournal =
  | { status: "missing" }
  | { status: "corrupt"; problem: string }
  | { status: "ok"; journal: ArchiveJournal };

export function readArchiveJournal(root: string): StoredJournal {
  let text: string;
  try {
    text = readFileSync(join(root, JOURNAL_FILE), "utf8");
  } catch {
    return { status: "missing" };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { status: "corrupt", problem: "the archive journal is not JSON" };
  }
  const parsed = toArchiveJournal(json);
  return parsed.ok
    ? { status: "ok", journal: parsed.journal }
    : { status: "corrupt", problem: parsed.problem };
}

/**
 * Saved after every step that changed something, flushed to disk (one fsync, then the rename): a crash must never
 * lose what already happened on GitHub. The folder is not flushed after the rename (a second fsync per step): a
 * power cut may then bring the previous journal back, whose later steps are checked again and found done, and git
 * flushes none of its own writes by default either (`core.fsync`).
 */
export function writeArchiveJournal(
  root: string,
  journal: ArchiveJournal,
): void {
  const file = join(root, JOURNAL_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeTextAtomic(file, `${JSON.stringify(journal, null, 2)}\n`);
  const stored = readArchiveHistory(root);
  const now = new Date().toISOString();
  const history = withArchive(
    stored.status === "ok" ? stored.history : null,
    journal,
    now,
  );
  if (!history) return;
  const historyFile = join(root, HISTORY_FILE);
  // One that cannot be read is kept beside the new one, not written over.
  if (stored.status === "corrupt")
    renameSync(
      historyFile,
      `${historyFile}.unreadable-${now.replace(/[:.]/g, "-")}`,
    );
  writeTextAtomic(historyFile, `${JSON.stringify(history, null, 2)}\n`);
}

/** The archives this working tree made (core/archive/archive-history.ts). */
export function readArchiveHistory(
  root: string,
):
  | { status: "missing" }
  | { status: "corrupt" }
  | { status: "ok"; history: ArchiveHistory } {
  let text: string;
  try {
    text = readFileSync(join(root, HISTORY_FILE), "utf8");
  } catch {
    return { status: "missing" };
  }
  try {
    const history = toArchiveHistory(JSON.parse(text));
    return history ? { status: "ok", history } : { status: "corrupt" };
  } catch {
    return { status: "corrupt" };
  }
}
