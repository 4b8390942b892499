import * as v from "valibot";
import type { ArchiveJournal } from "./journal.ts";

const ENTRY = v.object({
  /** The journal's id: one entry per archive, updated as its steps go on. */
  id: v.string(),
  playbook: v.string(),
  archivePath: v.string(),
  branch: v.string(),
  title: v.string(),
  pr: v.nullable(v.object({ number: v.number(), url: v.string() })),
  status: v.picklist(["running", "partial", "pending", "success"]),
  startedAt: v.string(),
  /** When the entry was last brought up to date. */
  at: v.string(),
});

const HISTORY = v.object({
  version: v.literal(1),
  entries: v.array(ENTRY),
});

/**
 * `.claude/playbook/archive-history.json`: every playbook this working tree archived, with its pull request. The
 * journal holds only the latest archive; this keeps the others, so the proof page can name each archived playbook's
 * pull request.
 */
export type ArchiveHistory = v.InferOutput<typeof HISTORY>;
export type ArchiveHistoryEntry = v.InferOutput<typeof ENTRY>;

/** How many archives the history keeps (the oldest go first). */
export const HISTORY_LIMIT = 500;

export function toArchiveHistory(json: unknown): ArchiveHistory | null {
  const result = v.safeParse(HISTORY, json);
  return result.success ? result.output : null;
}

/**
 * The history with `journal`'s archive in it, once its playbook was moved to `plan/archive/` (before that nothing is
 * archived yet); the same history when there is nothing to add or change.
 */
export function withArchive(
  history: ArchiveHistory | null,
  journal: ArchiveJournal,
  at: string,
): ArchiveHistory | null {
  const moved = journal.steps["archive-playbook"];
  if (moved === undefined || moved.status === "failed") return null;
  const entry: ArchiveHistoryEntry = {
    id: journal.id,
    playbook: journal.playbook,
    archivePath: journal.archivePath,
    branch: journal.branch,
    title: journal.title,
    pr: journal.pr,
    status: journal.status,
    startedAt: journal.startedAt,
    at,
  };
  const entries = (history?.entries ?? []).filter((e) => e.id !== journal.id);
  const before = history?.entries.find((e) => e.id === journal.id);
  if (before && sameFacts(before, entry)) return null;
  return {
    version: 1,
    entries: [...entries, entry].slice(-HISTORY_LIMIT),
  };
}

function sameFacts(a: ArchiveHistoryEntry, b: ArchiveHistoryEntry): boolean {
  return (
    a.status === b.status &&
    a.archivePath === b.archivePath &&
    a.pr?.number === b.pr?.number &&
    a.pr?.url === b.pr?.url &&
    a.title === b.title
  );
}
