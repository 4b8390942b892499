import { readdirSync, realpathSync } from "node:fs";
import { basename, join } from "node:path";
import {
  readArchiveHistory,
  readArchiveJournal,
} from "../../adapters/archive-journal-store.ts";
import { readCliSetup } from "../../adapters/cli-setup.ts";
import { findPackageRoot } from "../../adapters/package-root.ts";
import { spellCommands } from "../../core/scaffold/cli-spelling.ts";
import { readBounded } from "../../adapters/read-bounded.ts";
import { LOG_DIR, readPostLoopLock } from "../../adapters/runtime-files.ts";
import { readRecords } from "../../adapters/record-store.ts";
import { listWorktrees } from "../../adapters/worktrees.ts";
import type { ArchiveHistoryEntry } from "../../core/archive/archive-history.ts";
import type { WorktreeEntry } from "../../core/view/worktree-list.ts";
import { summarizePlaybook } from "../../core/cache/summary.ts";
import type { ProofPage } from "../../core/records/proof-html.ts";
import {
  toProofModel,
  type ProofModel,
} from "../../core/records/proof-model.ts";
import {
  diffPlanOutlines,
  readPlanOutline,
  toPlanOutline,
  type PlanChange,
} from "../../core/records/plan-outline.ts";
import { createRecordSet } from "../../core/records/record-set.ts";
import {
  archivedPlaybooks,
  toArchiveJournalView,
  type WorktreeView,
} from "../../core/view/page-parts.ts";
import { proofProgress } from "../../core/view/proof-progress.ts";
import { runLint } from "../lint/lint.ts";
import { currentTreeFingerprint } from "../workspace/current-tree.ts";

/** The page's commands (`playbook archive --resume`) spelled as the project at `root` runs playbook. */
export function spelledFor(root: string): (html: string) => string {
  const setup = readCliSetup(root, findPackageRoot().root);
  return (html) => spellCommands(html, setup);
}

/** How many archived playbooks the page lists (the newest). */
const ARCHIVED_SHOWN = 50;

/**
 * What the proof page shows of the project at `root` now: the active playbook's proof model (the one the pull
 * request's body and CI's job summary render), judged against the working tree as it is, the lock, an unfinished
 * archive with its journal, the archived playbooks with their pull requests, and the repository's other working trees
 * with their playbooks' progress. Reads only; writes no trust state.
 */
export function readProofPage(root: string, now: Date): ProofPage {
  const here = readWorkingTree(root, { planChanges: true });
  const { journal } = here;
  const { self, others: otherEntries } = splitWorktrees(root);
  const others = otherEntries.map((t) => ({
    entry: t,
    tree: readWorkingTree(t.path, {}),
  }));
  const archived = archivedPlaybooks(
    [
      { worktree: null, entries: here.history },
      ...others.map((o) => ({
        worktree: o.entry.path,
        entries: o.tree.history,
      })),
    ],
    listArchivedFiles(root),
  );
  const worktrees: WorktreeView[] =
    others.length === 0
      ? []
      : [
          worktreeView(root, self?.branch ?? null, true, here),
          ...others.map((o) =>
            worktreeView(o.entry.path, o.entry.branch, false, o.tree),
          ),
        ];
  return {
    project: basename(root),
    proof: here.proof,
    lock: here.lock,
    archive:
      journal.status === "ok"
        ? journal.journal.status === "success"
          ? null
          : { journal: toArchiveJournalView(journal.journal) }
        : journal.status === "corrupt"
          ? { problem: journal.problem }
          : null,
    at: now.toISOString(),
    planChanges: here.planChanges,
    blocks: readRecentBlocks(root, 10),
    archived: archived.slice(0, ARCHIVED_SHOWN),
    archivedMore: Math.max(0, archived.length - ARCHIVED_SHOWN),
    worktrees,
  };
}

/** The repository's other working trees that can be read (not gone, not bare). */
export function otherWorktrees(root: string): string[] {
  return splitWorktrees(root).others.map((t) => t.path);
}

/** This working tree's entry in git's list, and the others that can be read. */
function splitWorktrees(root: string): {
  self: WorktreeEntry | undefined;
  others: WorktreeEntry[];
} {
  const here = realOrSelf(root);
  const trees = listWorktrees(root);
  return {
    self: trees.find((t) => realOrSelf(t.path) === here),
    others: trees.filter((t) => !t.unusable && realOrSelf(t.path) !== here),
  };
}

interface WorkingTreeProof {
  proof: ProofModel | null;
  planChanges: PlanChange[] | null;
  lock: { playbook: string | null; at: string | null } | null;
  archiveStatus: WorktreeView["archive"];
  journal: ReturnType<typeof readArchiveJournal>;
  /** The archives this working tree recorded. */
  history: ArchiveHistoryEntry[];
}

/** The active playbook's proof in one working tree, its lock and its archive's status. */
function readWorkingTree(
  root: string,
  want: { planChanges?: boolean },
): WorkingTreeProof {
  const lint = runLint(root);
  const playbook = lint.active?.playbook ?? null;
  const file = lint.active?.file ?? null;
  const lock = readPostLoopLock(root);
  const summary =
    playbook && file
      ? summarizePlaybook(
          playbook,
          lint.diagnostics.filter((d) => d.file === file),
        )
      : null;
  const records = createRecordSet(file ? readRecords(root, file) : []);
  const proof =
    summary && file
      ? toProofModel({
          path: file,
          playbook: summary,
          records,
          tree: currentTreeFingerprint(root),
        })
      : null;
  let planChanges: PlanChange[] | null = null;
  if (want.planChanges && summary && file) {
    const review = records.latest({
      kind: "review",
      playbook: file,
      target: "playbook",
    });
    const approved = review ? readPlanOutline(review.detail) : null;
    planChanges = approved
      ? diffPlanOutlines(approved, toPlanOutline(summary))
      : null;
  }
  const journal = readArchiveJournal(root);
  const history = readArchiveHistory(root);
  return {
    proof,
    planChanges,
    journal,
    history: history.status === "ok" ? history.history.entries : [],
    lock: lock ? { playbook: lock.playbook ?? null, at: lock.at } : null,
    archiveStatus:
      journal.status === "ok"
        ? journal.journal.status === "success"
          ? null
          : journal.journal.status
        : journal.status === "corrupt"
          ? "unreadable"
          : null,
  };
}

function worktreeView(
  path: string,
  branch: string | null,
  here: boolean,
  tree: WorkingTreeProof,
): WorktreeView {
  return {
    path,
    branch,
    here,
    playbook: tree.proof?.playbook ?? null,
    progress: tree.proof ? proofProgress(tree.proof) : null,
    locked: tree.lock !== null,
    archive: tree.archiveStatus,
  };
}

/** The playbooks in `plan/archive/` of this working tree, as repository paths. */
function listArchivedFiles(root: string): string[] {
  try {
    return readdirSync(join(root, "plan", "archive"), { withFileTypes: true })
      .filter((d) => d.isFile() && /^playbook-.*\.md$/.test(d.name))
      .map((d) => `plan/archive/${d.name}`);
  } catch {
    return [];
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The last `count` refusals of the hook's block-reasons log (tab-separated, one per line), newest first. */
function readRecentBlocks(root: string, count: number): ProofPage["blocks"] {
  let text: string;
  try {
    text = readBounded(
      join(root, LOG_DIR, "block-reasons.log"),
      1024 * 1024,
    ).text;
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(-count)
    .reverse()
    .map((line) => {
      const [at = "", , tool = "", guard = "", ...reason] = line.split("\t");
      return { at, tool, guard, reason: reason.join("\t") };
    });
}
