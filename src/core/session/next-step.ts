import type { PlaybookSummary } from "../model/summary.ts";
import { VALIDATION_NAMES } from "../model/playbook.ts";
import { planGate } from "../records/plan-gate.ts";
import type { RecordSet } from "../records/record.ts";

type PhaseSummary = PlaybookSummary["phases"][number];
type SubtaskSummary = PhaseSummary["subtasks"][number];

/** The words for a shut plan gate, shared by the status line, the session summary and `playbook status`. */
export const PLAN_STEP = {
  write: "write the plan",
  review: "review the plan",
  context: "write ## context",
} as const;

/** What the active playbook needs next, as the continuation loop, the session summary and the status line say it. */
export type NextStep =
  | { kind: "plan"; missing: "write" | "review" | "context"; text: string }
  | { kind: "implement"; phase: string; subtask: string; text: string }
  | { kind: "fix"; phase: string; subtask: string | null; text: string }
  | { kind: "tick"; phase: string; subtask: string; text: string }
  | { kind: "delegate"; phase: string; subtask: string; text: string }
  | { kind: "user"; phase: string; subtask: string | null; text: string }
  | { kind: "critic"; phase: string; text: string }
  | { kind: "close-phase"; phase: string; text: string }
  | { kind: "start-phase"; phase: string; text: string }
  | { kind: "waiting"; phase: string; text: string }
  | { kind: "final-task"; task: string; text: string }
  | { kind: "complete"; text: string };

export interface PlaybookView {
  path: string;
  playbook: PlaybookSummary;
  records: RecordSet;
  /** `goal.phase` of state.md. */
  statePhase: string | null;
  /** An executor or role name resolved to `claudecode`, `codex`, `coderabbit` or `user`. */
  resolveExecutor: (name: string) => string;
}

/**
 * The next concrete step of the playbook: the review or the context while the plan gate is shut, then the phase state.md names (or the first one in progress, or the first one
 * not done), its first open subtask whose dependencies are checked, and what that subtask lacks — code and
 * `playbook verify`, a fix after a failed verification, the user's confirmation, or only the tick. A phase whose
 * subtasks are all checked needs the critic, then `**status**: done`. Pure: records are looked up, never read.
 */
export function nextStep(view: PlaybookView): NextStep {
  // Before the plan is approved (and has its context), nothing else can start: the guards refuse it.
  const gate = planGate(view.path, view.playbook, view.records);
  if (!gate.open)
    return {
      kind: "plan",
      missing:
        gate.missing === "context" || gate.missing === "write"
          ? gate.missing
          : "review",
      text: gate.next,
    };
  const phases = view.playbook.phases;
  const done = new Set(
    phases.filter((p) => p.status === "done").map((p) => p.id),
  );
  const named = phases.find(
    (p) => p.id === view.statePhase && p.status !== "done",
  );
  const phase =
    named ??
    phases.find((p) => p.status === "in_progress") ??
    phases.find((p) => p.status !== "done");
  if (!phase) return finalStep(view.playbook);
  const waitingFor = phase.dependsOn.filter((id) => !done.has(id));
  if (waitingFor.length > 0)
    return {
      kind: "waiting",
      phase: phase.id,
      text: `${phase.id} waits for ${waitingFor.join(", ")}: finish ${waitingFor.length === 1 ? "that phase" : "those phases"} first.`,
    };
  const open = phase.subtasks.filter((s) => !s.checked);
  if (open.length === 0) return closePhase(view, phase);
  if (phase.status === "pending" && named === undefined)
    return {
      kind: "start-phase",
      phase: phase.id,
      text: `start ${phase.id} (${phase.name}): set \`phase: ${phase.id}\` in state.md and \`**status**: in_progress\` in the playbook.`,
    };
  const checked = new Set(
    phase.subtasks.filter((s) => s.checked).map((s) => s.id),
  );
  const ready =
    open.find((s) =>
      s.dependsOn.every((id) => checked.has(id) || isOutside(id, phase)),
    ) ?? open[0]!;
  return subtaskStep(view, phase, ready);
}

function isOutside(id: string, phase: PhaseSummary): boolean {
  return !phase.subtasks.some((s) => s.id === id);
}

function subtaskStep(
  view: PlaybookView,
  phase: PhaseSummary,
  subtask: SubtaskSummary,
): NextStep {
  const ids = { phase: phase.id, subtask: subtask.id };
  const about = `${subtask.id} (${subtask.criterion})`;
  const executor = view.resolveExecutor(subtask.executor ?? "worker");
  if (executor === "user")
    return {
      kind: "user",
      ...ids,
      text: `${about} is the user's to do: ask them, and wait.`,
    };
  if (executor === "codex" || executor === "coderabbit")
    return {
      kind: "delegate",
      ...ids,
      text: `${about} belongs to ${executor}: hand it to the ${executor === "codex" ? "codex-delegate" : "coderabbit"} subagent.`,
    };
  const proof = proofOf(view, subtask);
  if (proof.failed)
    return {
      kind: "fix",
      ...ids,
      text: `${about}: the last \`playbook verify ${subtask.id}\` failed; fix the cause and run it again.`,
    };
  if (proof.needsEvidence)
    return {
      kind: "implement",
      ...ids,
      text: `${about}: do the work, then run \`playbook verify ${subtask.id}\` to record the evidence.`,
    };
  if (proof.needsConfirmation)
    return {
      kind: "user",
      ...ids,
      text: `${about} is verified and needs the user's check: ask them to run \`playbook confirm ${subtask.id}\` in a terminal.`,
    };
  return {
    kind: "tick",
    ...ids,
    text: `${about} has its proof recorded: check its box in ${view.path}.`,
  };
}

function proofOf(
  view: PlaybookView,
  subtask: SubtaskSummary,
): { needsEvidence: boolean; failed: boolean; needsConfirmation: boolean } {
  const hash = view.playbook.hashes.subtasks[subtask.id] ?? null;
  let needsEvidence = false;
  let failed = false;
  let needsConfirmation = false;
  for (const name of VALIDATION_NAMES) {
    const validation = subtask.validations[name];
    if (!validation) continue;
    if (validation.kind !== "manual") {
      const evidence = view.records.latest({
        kind: "evidence",
        playbook: view.path,
        target: subtask.id,
        validation: name,
      });
      if (!evidence || evidence.contentHash !== hash) needsEvidence = true;
      else if (evidence.verdict !== "PASS") failed = true;
    }
    if (validation.kind === "manual" || validation.kind === "hybrid") {
      const confirmation = view.records.latest({
        kind: "confirmation",
        playbook: view.path,
        target: subtask.id,
      });
      if (!confirmation || confirmation.contentHash !== hash)
        needsConfirmation = true;
    }
  }
  return { needsEvidence, failed, needsConfirmation };
}

function closePhase(view: PlaybookView, phase: PhaseSummary): NextStep {
  const verdict = view.records.latest({
    kind: "critic",
    playbook: view.path,
    target: phase.id,
  });
  const current =
    verdict !== null &&
    verdict.contentHash === view.playbook.hashes.phases[phase.id];
  if (current && verdict.verdict === "PASS")
    return {
      kind: "close-phase",
      phase: phase.id,
      text: `every subtask of ${phase.id} is checked and the critic passed it: set \`**status**: done\` for ${phase.id}.`,
    };
  if (current)
    return {
      kind: "fix",
      phase: phase.id,
      subtask: null,
      text: `the critic failed ${phase.id}: fix what it found, then run /crit ${phase.id} again.`,
    };
  return {
    kind: "critic",
    phase: phase.id,
    text: `every subtask of ${phase.id} is checked: run /crit ${phase.id} so the critic verifies the phase.`,
  };
}

function finalStep(playbook: PlaybookSummary): NextStep {
  const task = playbook.finalTasks.find((t) => !t.checked);
  if (task)
    return {
      kind: "final-task",
      task: task.id,
      text: `every phase is done; final task ${task.id} (${task.text}) is open.`,
    };
  return {
    kind: "complete",
    text: "every phase and final task is done: the archive workflow takes over.",
  };
}
