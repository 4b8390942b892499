import { hash } from "node:crypto";
import type { PlaybookSummary } from "../model/summary.ts";
import { VALIDATION_NAMES } from "../model/playbook.ts";

/** What the hashes read: never `meta`, `diagnostics` or the stored hashes themselves. */
export type HashablePlaybook = Pick<
  PlaybookSummary,
  "goal" | "hasContext" | "phases" | "finalTasks"
>;

type PhaseSummary = PlaybookSummary["phases"][number];
type SubtaskSummary = PhaseSummary["subtasks"][number];

/**
 * What a reviewer approves (docs/guards.md): the plan, not its progress. Covered: `goal.summary`, `goal.done_when`, whether
 * `## context` has text, and per phase its id, name and `depends_on`, per subtask its id, criterion, executor,
 * `depends_on` and each validation's kind and text, plus the final tasks' ids and texts. Not covered: checkboxes,
 * phase statuses, validation results (PASS/FAIL), `validated` stamps and `meta` (so setting `reviewed: true` keeps
 * the review current).
 *
 * @returns `sha256:<hex>` of a canonical JSON of those fields, in document order.
 */
export function reviewHash(playbook: HashablePlaybook): string {
  return digestText(reviewSource(playbook));
}

/**
 * Whether a reviewer approving `a` approved `b` too: their {@link reviewHash}es are equal. Compared by digest when
 * both summaries hold theirs as data (a stored summary, a tick derived from one); else on the canonical text, so the
 * hook judges an edit of a reviewed plan without loading `node:crypto` (about 3 ms a call) to hash a fresh parse.
 */
export function sameReviewedPlan(
  a: HashablePlaybook & Pick<PlaybookSummary, "hashes">,
  b: HashablePlaybook & Pick<PlaybookSummary, "hashes">,
): boolean {
  if (hashesStored(a) && hashesStored(b))
    return a.hashes.review === b.hashes.review;
  return reviewSource(a) === reviewSource(b);
}

/** The summary's hashes are a value, not computed on first read (see summarizePlaybook). */
function hashesStored(summary: object): boolean {
  return Object.getOwnPropertyDescriptor(summary, "hashes")?.get === undefined;
}

function reviewSource(playbook: HashablePlaybook): string {
  return JSON.stringify({
    hash: "review/1",
    goal: {
      summary: playbook.goal.summary,
      doneWhen: playbook.goal.doneWhen,
    },
    hasContext: playbook.hasContext,
    phases: playbook.phases.map((phase) => ({
      id: phase.id,
      name: phase.name,
      dependsOn: phase.dependsOn,
      subtasks: phase.subtasks.map((subtask) => ({
        id: subtask.id,
        criterion: subtask.criterion,
        executor: subtask.executor,
        dependsOn: subtask.dependsOn,
        validations: validationsOf(subtask),
      })),
    })),
    finalTasks: playbook.finalTasks.map((task) => ({
      id: task.id,
      text: task.text,
    })),
  });
}

/**
 * What the critic judges: a finished phase. Covered: the phase id, name and `depends_on`, and per subtask its id,
 * criterion, each validation's kind and text, and whether it is checked. Not covered: the phase status (setting
 * `done` after the verdict keeps it current), validation results and `validated` stamps.
 *
 * @returns `sha256:<hex>`, or null when the playbook has no phase `phaseId` (the first one counts when duplicated).
 */
export function phaseHash(
  playbook: HashablePlaybook,
  phaseId: string,
): string | null {
  const source = phaseHashSource(playbook, phaseId);
  return source === null ? null : digestText(source);
}

/**
 * The canonical text {@link phaseHash} digests (sha256, as `sha256:<hex>`), for a caller that hashes it without
 * loading this module's `node:crypto` (the hook, on a tick).
 */
export function phaseHashSource(
  playbook: HashablePlaybook,
  phaseId: string,
): string | null {
  const phase = playbook.phases.find((p) => p.id === phaseId);
  return phase ? phaseSource(phase) : null;
}

function phaseSource(phase: PhaseSummary): string {
  return JSON.stringify({
    hash: "phase/1",
    id: phase.id,
    name: phase.name,
    dependsOn: phase.dependsOn,
    subtasks: phase.subtasks.map((subtask) => ({
      id: subtask.id,
      criterion: subtask.criterion,
      validations: validationsOf(subtask),
      checked: subtask.checked,
    })),
  });
}

/**
 * What `playbook verify` and `playbook confirm` prove: one subtask's promise. Covered: its id, criterion, executor
 * and each validation's kind and text. Not covered: the checkbox, validation results and the `validated` stamp, so
 * writing the results back keeps the proof current.
 *
 * @returns `sha256:<hex>`, or null when no subtask has id `subtaskId` (the first one counts when duplicated).
 */
export function subtaskHash(
  playbook: HashablePlaybook,
  subtaskId: string,
): string | null {
  for (const phase of playbook.phases) {
    const subtask = phase.subtasks.find((s) => s.id === subtaskId);
    if (subtask) return subtaskDigest(subtask);
  }
  return null;
}

function subtaskDigest(subtask: SubtaskSummary): string {
  return digest({
    hash: "subtask/1",
    id: subtask.id,
    criterion: subtask.criterion,
    executor: subtask.executor,
    validations: validationsOf(subtask),
  });
}

/**
 * Every hash of a playbook at once, stored in its cached summary so the hook compares records without hashing (and
 * without loading `node:crypto`) on every call.
 */
export function playbookHashes(
  playbook: HashablePlaybook,
): PlaybookSummary["hashes"] {
  const phases: Record<string, string> = {};
  const subtasks: Record<string, string> = {};
  // The first phase or subtask of an id is the one its hash covers, as phaseHash and subtaskHash find it; hashed in
  // one pass, since looking each id up again made this quadratic in the size of the playbook.
  for (const phase of playbook.phases) {
    phases[phase.id] ??= digestText(phaseSource(phase));
    for (const subtask of phase.subtasks)
      subtasks[subtask.id] ??= subtaskDigest(subtask);
  }
  return { review: reviewHash(playbook), phases, subtasks };
}

/** `[name, kind, text]` per present validation, in the fixed order technical, consistency, completeness. */
function validationsOf(subtask: SubtaskSummary): [string, string, string][] {
  return VALIDATION_NAMES.flatMap((name) => {
    const validation = subtask.validations[name];
    return validation
      ? [[name, validation.kind, validation.text] as [string, string, string]]
      : [];
  });
}

// Every value is built with a fixed key order and contains only strings, booleans, null and arrays, so
// JSON.stringify is canonical here.
function digest(value: unknown): string {
  return digestText(JSON.stringify(value));
}

function digestText(text: string): string {
  // The one-shot hash: a playbook's summary hashes every subtask, and a Hash object each cost twice as much.
  return `sha256:${hash("sha256", text, "hex")}`;
}
