import type { PlaybookSummary } from "../model/summary.ts";

/**
 * What a reviewer approves, kept in the review record (`detail.plan`) so the plan as approved can be set against
 * the plan as it is now: the goal, and per subtask its criterion and each validation's kind and text.
 */
export interface PlanOutline {
  goal: string | null;
  subtasks: {
    id: string;
    criterion: string;
    validations: Record<string, { kind: string; text: string }>;
  }[];
}

/** One difference between the plan as approved and the plan now, in the words a reviewer reads. */
export interface PlanChange {
  /** The subtask, or `goal`. */
  target: string;
  what: "added" | "removed" | "criterion" | "validation" | "goal";
  /** The validation's name, for `validation`. */
  validation?: string;
  before: string | null;
  after: string | null;
}

export function toPlanOutline(playbook: PlaybookSummary): PlanOutline {
  return {
    goal: playbook.goal.summary,
    subtasks: playbook.phases.flatMap((phase) =>
      phase.subtasks.map((s) => ({
        id: s.id,
        criterion: s.criterion,
        validations: Object.fromEntries(
          Object.entries(s.validations).map(([name, v]) => [
            name,
            { kind: v.kind, text: v.text },
          ]),
        ),
      })),
    ),
  };
}

/** The outline a review record holds, or null when it holds none (a review made before outlines were kept). */
export function readPlanOutline(
  detail: Record<string, unknown>,
): PlanOutline | null {
  const plan = detail["plan"];
  if (typeof plan !== "object" || plan === null) return null;
  const { goal, subtasks } = plan as { goal?: unknown; subtasks?: unknown };
  if (!Array.isArray(subtasks)) return null;
  const out: PlanOutline["subtasks"] = [];
  for (const s of subtasks) {
    if (typeof s !== "object" || s === null) return null;
    const { id, criterion, validations } = s as Record<string, unknown>;
    if (typeof id !== "string" || typeof criterion !== "string") return null;
    const kept: Record<string, { kind: string; text: string }> = {};
    if (typeof validations === "object" && validations !== null)
      for (const [name, v] of Object.entries(validations)) {
        const { kind, text } = (v ?? {}) as Record<string, unknown>;
        if (typeof kind === "string" && typeof text === "string")
          kept[name] = { kind, text };
      }
    out.push({ id, criterion, validations: kept });
  }
  return { goal: typeof goal === "string" ? goal : null, subtasks: out };
}

/** What changed between the plan as approved (`before`) and now (`after`): subtasks, criteria and validations. */
export function diffPlanOutlines(
  before: PlanOutline,
  after: PlanOutline,
): PlanChange[] {
  const changes: PlanChange[] = [];
  if (before.goal !== after.goal)
    changes.push({
      target: "goal",
      what: "goal",
      before: before.goal,
      after: after.goal,
    });
  const was = new Map(before.subtasks.map((s) => [s.id, s]));
  const now = new Map(after.subtasks.map((s) => [s.id, s]));
  for (const s of after.subtasks) {
    const old = was.get(s.id);
    if (old === undefined) {
      changes.push({
        target: s.id,
        what: "added",
        before: null,
        after: s.criterion,
      });
      continue;
    }
    if (old.criterion !== s.criterion)
      changes.push({
        target: s.id,
        what: "criterion",
        before: old.criterion,
        after: s.criterion,
      });
    const names = new Set([
      ...Object.keys(old.validations),
      ...Object.keys(s.validations),
    ]);
    for (const name of names) {
      const a = old.validations[name];
      const b = s.validations[name];
      const show = (v: typeof a) =>
        v === undefined ? null : `${v.kind} - ${v.text}`;
      if (show(a) !== show(b))
        changes.push({
          target: s.id,
          what: "validation",
          validation: name,
          before: show(a),
          after: show(b),
        });
    }
  }
  for (const s of before.subtasks)
    if (!now.has(s.id))
      changes.push({
        target: s.id,
        what: "removed",
        before: s.criterion,
        after: null,
      });
  return changes;
}
