import { currentPhase, resolveExecutor } from "../guards/facts.ts";
import { reviewState } from "../guards/playbook.ts";
import type { GuardContext } from "../guards/types.ts";
import { nextStep } from "./next-step.ts";
import type { PlaybookProgress } from "./session-summary.ts";

/** How many open subtasks summaries list. */
const OPEN_LISTED = 5;

/** The active playbook's progress and next step as the workspace shows it, or null without an active playbook. */
export function playbookProgress(ctx: GuardContext): PlaybookProgress | null {
  if (!ctx.active) return null;
  const { path, summary } = ctx.active;
  const next = nextStep({
    path,
    playbook: summary,
    records: ctx.records,
    statePhase: ctx.state?.goal.phase ?? null,
    resolveExecutor: (name) => resolveExecutor(ctx, name),
  });
  const phaseId =
    "phase" in next ? next.phase : (currentPhase(ctx)?.id ?? null);
  const phase = summary.phases.find((p) => p.id === phaseId) ?? null;
  const subtasks = summary.phases.flatMap((p) => p.subtasks);
  return {
    path,
    branch: summary.meta.branch,
    goal: summary.goal.summary ?? "(no goal summary)",
    reviewed: summary.meta.reviewed && reviewState(ctx, path, summary).current,
    phase: phase && {
      id: phase.id,
      name: phase.name,
      checked: phase.subtasks.filter((s) => s.checked).length,
      total: phase.subtasks.length,
    },
    checked: subtasks.filter((s) => s.checked).length,
    total: subtasks.length,
    next,
    open: (phase?.subtasks ?? [])
      .filter((s) => !s.checked)
      .slice(0, OPEN_LISTED)
      .map((s) => ({ id: s.id, criterion: s.criterion })),
  };
}
