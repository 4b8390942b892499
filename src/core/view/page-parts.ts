import type { ArchiveHistoryEntry } from "../archive/archive-history.ts";
import {
  ARCHIVE_STEPS,
  type ArchiveJournal,
  type ArchiveStepId,
} from "../archive/journal.ts";
import type { ProofProgress } from "./proof-progress.ts";

/** An archive that has not finished: each of its steps as the journal has it, and what to do next. */
export interface ArchiveJournalView {
  playbook: string;
  branch: string;
  status: ArchiveJournal["status"];
  pr: { number: number; url: string } | null;
  next: string | null;
  pending: { what: string; next: string } | null;
  steps: {
    id: ArchiveStepId;
    status: "done" | "skipped" | "failed" | "not yet";
    at: string | null;
    detail: string;
  }[];
}

/** A playbook in `plan/archive/`, with its pull request when an archive of this repository's worktrees recorded it. */
export interface ArchivedPlaybook {
  archivePath: string;
  title: string | null;
  pr: { number: number; url: string } | null;
  /** How its archive ended; null when no working tree here kept its record (archived in another clone). */
  status: ArchiveJournal["status"] | null;
  at: string | null;
  /** The working tree whose archive it was, when not the one the page is about. */
  worktree: string | null;
}

/** A working tree of the repository, with its active playbook and how far it got. */
export interface WorktreeView {
  path: string;
  branch: string | null;
  /** The working tree the page is about. */
  here: boolean;
  playbook: string | null;
  progress: ProofProgress | null;
  locked: boolean;
  /** Its unfinished archive's status (`unreadable` when its journal cannot be read), if any. */
  archive: ArchiveJournal["status"] | "unreadable" | null;
}

/** The journal as the page shows it: every step in order, the ones not reached yet included. */
export function toArchiveJournalView(
  journal: ArchiveJournal,
): ArchiveJournalView {
  return {
    playbook: journal.playbook,
    branch: journal.branch,
    status: journal.status,
    pr: journal.pr,
    next: journal.next,
    pending: journal.pending
      ? { what: journal.pending.what, next: journal.pending.next }
      : null,
    steps: ARCHIVE_STEPS.map((id) => {
      const step = journal.steps[id];
      return step
        ? { id, status: step.status, at: step.at, detail: step.detail }
        : { id, status: "not yet", at: null, detail: "" };
    }),
  };
}

/**
 * The archived playbooks, newest first: each archive the worktrees' histories recorded, then each file of
 * `plan/archive/` none of them names (archived in another clone, or before histories were kept).
 */
export function archivedPlaybooks(
  histories: { worktree: string | null; entries: ArchiveHistoryEntry[] }[],
  files: readonly string[],
): ArchivedPlaybook[] {
  const seen = new Set<string>();
  const recorded: ArchivedPlaybook[] = [];
  for (const { worktree, entries } of histories)
    for (const e of entries) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      recorded.push({
        archivePath: e.archivePath,
        title: e.title,
        pr: e.pr,
        status: e.status,
        at: e.at,
        worktree,
      });
    }
  recorded.sort((a, b) => (b.at ?? "").localeCompare(a.at ?? ""));
  // A file another worktree's archive put there (merged into this one since) is that archive's: listed once.
  const named = new Set(recorded.map((r) => r.archivePath));
  const others = files
    .filter((f) => !named.has(f))
    .sort()
    .reverse()
    .map((archivePath): ArchivedPlaybook => ({
      archivePath,
      title: null,
      pr: null,
      status: null,
      at: null,
      worktree: null,
    }));
  return [...recorded, ...others];
}
