import type { Diagnostic } from "../core/model/diagnostic.ts";
import type { PhaseStatus, Playbook } from "../core/model/playbook.ts";
import { runLint } from "./run-lint.ts";

export interface StatusReport {
  /** The active playbook's path, when it could be read. */
  active: string | null;
  /** What `state.md` names as active when it is unsafe or missing; the diagnostics say why. */
  unreadableActive: string | null;
  branch: string | null;
  reviewed: boolean | null;
  summary: string | null;
  currentPhase: string | null;
  phases: {
    id: string;
    name: string;
    status: PhaseStatus;
    done: number;
    total: number;
  }[];
  next: { id: string; phase: string; criterion: string }[];
  finalTasks: { done: number; total: number };
  diagnostics: Diagnostic[];
}

const NEXT_LIMIT = 5;

/** Reads the project's state and active playbook and reports progress, the next open subtasks and diagnostics. */
export function runStatus(root: string): StatusReport {
  const lint = runLint(root);
  const state = lint.state?.state ?? null;
  const playbook = lint.active?.playbook ?? null;
  return {
    active: lint.active?.file ?? null,
    unreadableActive: lint.active ? null : (state?.playbook.active ?? null),
    branch: playbook?.meta.branch ?? state?.playbook.branch ?? null,
    reviewed: playbook ? playbook.meta.reviewed : null,
    summary: playbook?.goal.summary ?? null,
    currentPhase: state?.goal.phase ?? null,
    phases: (playbook?.phases ?? []).map((phase) => ({
      id: phase.id,
      name: phase.name,
      status: phase.status,
      done: phase.subtasks.filter((s) => s.checked).length,
      total: phase.subtasks.length,
    })),
    next: playbook ? nextSubtasks(playbook) : [],
    finalTasks: {
      done: (playbook?.finalTasks ?? []).filter((t) => t.checked).length,
      total: (playbook?.finalTasks ?? []).length,
    },
    diagnostics: lint.diagnostics,
  };
}

/** Open subtasks in phase order whose own dependencies are checked: what the agent can do now. */
function nextSubtasks(playbook: Playbook): StatusReport["next"] {
  const checked = new Set(
    playbook.phases.flatMap((p) =>
      p.subtasks.filter((s) => s.checked).map((s) => s.id),
    ),
  );
  const donePhases = new Set(
    playbook.phases.filter((p) => p.status === "done").map((p) => p.id),
  );
  const next: StatusReport["next"] = [];
  for (const phase of playbook.phases) {
    if (
      phase.status === "done" ||
      !phase.dependsOn.every((dep) => donePhases.has(dep))
    )
      continue;
    for (const subtask of phase.subtasks) {
      if (
        subtask.checked ||
        !subtask.dependsOn.every(
          (dep) => checked.has(dep) || donePhases.has(dep),
        )
      )
        continue;
      next.push({
        id: subtask.id,
        phase: phase.id,
        criterion: subtask.criterion,
      });
      if (next.length >= NEXT_LIMIT) return next;
    }
  }
  return next;
}
