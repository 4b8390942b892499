import type { PlaybookSummary } from "../model/summary.ts";
import { VALIDATION_NAMES } from "../model/playbook.ts";
import type { FileChange } from "./types.ts";

export interface PlaybookEdit {
  path: string;
  before: PlaybookSummary | null;
  after: PlaybookSummary;
}

/** Edits of playbooks whose new content is known (Edit, Write, MultiEdit), with both versions. */
export function playbookEdits(changes: readonly FileChange[]): PlaybookEdit[] {
  const edits: PlaybookEdit[] = [];
  for (const change of changes) {
    const doc = change.document;
    if (doc?.kind === "playbook" && doc.after && change.path !== null)
      edits.push({ path: change.path, before: doc.before, after: doc.after });
  }
  return edits;
}

/** Playbook changes whose new content cannot be checked (too large, unparsable): refused by the records guards. */
export function uncheckablePlaybookChanges(
  changes: readonly FileChange[],
): { path: string; problem: string }[] {
  return changes.flatMap((change) =>
    change.document?.kind === "playbook" &&
    !change.document.after &&
    change.document.afterProblem &&
    change.path !== null
      ? [{ path: change.path, problem: change.document.afterProblem }]
      : [],
  );
}

export type SubtaskSummary =
  PlaybookSummary["phases"][number]["subtasks"][number];

/** The first subtask with `id` (a duplicate id counts where it first appears). */
export function findSubtask(
  playbook: PlaybookSummary | null,
  id: string,
): SubtaskSummary | null {
  if (playbook === null) return null;
  // The guards look up every subtask of an edit's "after" in its "before": indexed once per summary, that stays
  // linear in a 1,000-subtask playbook instead of a million comparisons.
  let index = subtaskIndex.get(playbook);
  if (index === undefined) {
    index = new Map();
    for (const phase of playbook.phases)
      for (const subtask of phase.subtasks)
        if (!index.has(subtask.id)) index.set(subtask.id, subtask);
    subtaskIndex.set(playbook, index);
  }
  return index.get(id) ?? null;
}

const subtaskIndex = new WeakMap<
  PlaybookSummary,
  Map<string, SubtaskSummary>
>();

/**
 * Whether an edit claims proof of the code: a subtask turning `[x]`, a validation turning PASS or a phase turning
 * `done`. Only then does the hook read the working tree's fingerprint (it costs a git process).
 */
export function claimsProof(changes: readonly FileChange[]): boolean {
  return playbookEdits(changes).some(({ before, after }) =>
    after.phases.some(
      (phase) =>
        (phase.status === "done" &&
          before?.phases.find((p) => p.id === phase.id)?.status !== "done") ||
        phase.subtasks.some((subtask) => {
          const was = findSubtask(before, subtask.id);
          return (
            (subtask.checked && !was?.checked) ||
            VALIDATION_NAMES.some(
              (name) =>
                subtask.validations[name]?.result === "PASS" &&
                was?.validations[name]?.result !== "PASS",
            )
          );
        }),
    ),
  );
}
