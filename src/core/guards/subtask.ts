import { VALIDATION_NAMES, type ValidationName } from "../model/playbook.ts";
import {
  approvalStep,
  findProofGaps,
  isCodeGap,
  unapprovedPlan,
  unreadableTree,
  type ProofGap,
} from "../records/proof-state.ts";
import { ALLOW, block } from "./facts.ts";
import {
  findSubtask,
  playbookEdits,
  uncheckablePlaybookChanges,
  type PlaybookEdit,
  type SubtaskSummary,
} from "./playbook-changes.ts";
import type { Guard, GuardContext } from "./types.ts";

/**
 * docs/guards.md #7 (every mode, fail-closed): a subtask turning `[x]`, or a validation turning PASS, needs proof the agent
 * cannot type: a current PASS evidence record from `playbook verify` for each automated (and hybrid) validation and
 * a current confirmation record from `playbook confirm` for manual (and hybrid) ones.
 */
export const subtaskGuard: Guard = {
  id: "subtask",
  number: 7,
  events: ["PreToolUse"],
  failClosed: true,
  check(ctx) {
    const uncheckable = uncheckablePlaybookChanges(ctx.changes)[0];
    if (uncheckable)
      return block(
        `Blocked: the new content of \`${uncheckable.path}\` cannot be checked (${uncheckable.problem}). Next: make a smaller Edit.`,
      );
    for (const edit of playbookEdits(ctx.changes)) {
      const duplicate = newlyCheckedDuplicate(edit);
      if (duplicate)
        return block(
          `Blocked: \`${duplicate}\` appears more than once in \`${edit.path}\` and this edit checks one of them. Proof is kept per id, so a checked duplicate cannot be trusted. Next: give each subtask its own id.`,
        );
      for (const phase of edit.after.phases)
        for (const subtask of phase.subtasks) {
          const before = findSubtask(edit.before, subtask.id);
          const rewritten = rewrittenValidations(subtask, before);
          if (rewritten.length > 0)
            return block(
              `Blocked: this edit rewrites the validations of ${subtask.id} (${rewritten.join(", ")}) while ${describeTransition(subtask, before)} in \`${edit.path}\`; proof counts only for the validations as the reviewed plan states them. Next: keep them as they are and run \`playbook verify ${subtask.id}\`, then tick the box; to change a validation, edit it alone and have the reviewer approve the plan again.`,
            );
          const unapproved = claimsProof(subtask, before)
            ? unapprovedPlan(edit.path, edit.after, ctx.records)
            : null;
          if (unapproved !== null)
            return block(
              `Blocked: ${describeTransition(subtask, before)} in \`${edit.path}\` counts only for the plan as the reviewer approved it, and ${unapproved}. Next: ${approvalStep(edit.path)}, then run \`playbook verify ${subtask.id}\` and make this edit again.`,
            );
          const gaps = missingProof(ctx, edit, subtask, before);
          if (gaps.length > 0)
            return block(
              `Blocked: ${describeTransition(subtask, before)} in \`${edit.path}\` needs proof that is missing: ${gaps.map(describeGap).join("; ")}. Next: ${nextForGaps(gaps, subtask.id, unreadableTree(ctx.tree))} Then make this edit again.`,
            );
        }
    }
    return ALLOW;
  },
};

/** An id used by several subtasks whose number of checked occurrences grows with this edit. */
function newlyCheckedDuplicate(edit: PlaybookEdit): string | null {
  const count = (playbook: PlaybookEdit["before"], checkedOnly: boolean) => {
    const counts = new Map<string, number>();
    for (const phase of playbook?.phases ?? [])
      for (const s of phase.subtasks)
        if (!checkedOnly || s.checked)
          counts.set(s.id, (counts.get(s.id) ?? 0) + 1);
    return counts;
  };
  const all = count(edit.after, false);
  const checkedAfter = count(edit.after, true);
  const checkedBefore = count(edit.before, true);
  for (const [id, n] of checkedAfter)
    if ((all.get(id) ?? 0) > 1 && n > (checkedBefore.get(id) ?? 0)) return id;
  return null;
}

function describeTransition(
  subtask: SubtaskSummary,
  before: SubtaskSummary | null,
): string {
  return subtask.checked && !before?.checked
    ? `checking ${subtask.id}`
    : `marking validations of ${subtask.id} PASS`;
}

/**
 * Validations whose kind or text this edit changes while it ticks the subtask or passes a validation: a PASS typed
 * over the approved wording. `playbook verify` changes neither (it only adds the result).
 */
function rewrittenValidations(
  subtask: SubtaskSummary,
  before: SubtaskSummary | null,
): ValidationName[] {
  if (before === null) return [];
  const claims =
    (subtask.checked && !before.checked) ||
    VALIDATION_NAMES.some(
      (name) =>
        subtask.validations[name]?.result === "PASS" &&
        before.validations[name]?.result !== "PASS",
    );
  if (!claims) return [];
  return VALIDATION_NAMES.filter((name) => {
    const was = before.validations[name];
    const now = subtask.validations[name];
    return (
      was !== undefined &&
      (now === undefined || now.kind !== was.kind || now.text !== was.text)
    );
  });
}

/** Whether this edit ticks the subtask or turns one of its validations PASS. */
function claimsProof(
  subtask: SubtaskSummary,
  before: SubtaskSummary | null,
): boolean {
  return (
    (subtask.checked && !before?.checked) ||
    VALIDATION_NAMES.some(
      (name) =>
        subtask.validations[name]?.result === "PASS" &&
        before?.validations[name]?.result !== "PASS",
    )
  );
}

function missingProof(
  ctx: GuardContext,
  edit: PlaybookEdit,
  subtask: SubtaskSummary,
  before: SubtaskSummary | null,
): ProofGap[] {
  const ticked = subtask.checked && !before?.checked;
  const newlyPassed = VALIDATION_NAMES.filter(
    (name) =>
      subtask.validations[name]?.result === "PASS" &&
      before?.validations[name]?.result !== "PASS",
  );
  if (!ticked && newlyPassed.length === 0) return [];
  const names: readonly ValidationName[] = ticked
    ? VALIDATION_NAMES
    : newlyPassed;
  const hash = edit.after.hashes.subtasks[subtask.id] ?? null;
  return findProofGaps(edit.path, subtask, hash, ctx.records, names, ctx.tree);
}

/** The steps that supply exactly the missing proof, in the order they are done. `unreadable`: git's words. */
function nextForGaps(
  gaps: readonly ProofGap[],
  id: string,
  unreadable: string | null,
): string {
  const steps: string[] = [];
  if (gaps.some((g) => g.needs === "kind"))
    steps.push(
      "say in the playbook how each validation is proven (automated, manual or hybrid) and have the plan reviewed again",
    );
  const evidence = gaps.flatMap((g) => (g.needs === "evidence" ? [g] : []));
  if (unreadable !== null && evidence.some((g) => g.why === "unreadable"))
    steps.push(
      `make git able to read the working tree again (it said: ${unreadable}; \`git status\` shows the same), and if the code changed meanwhile run \`npx --no playbook verify ${id}\` again`,
    );
  else if (evidence.length > 0)
    steps.push(
      evidence.every(isCodeGap)
        ? `run \`npx --no playbook verify ${id}\` again, so the evidence proves the code as it is now`
        : `run \`playbook verify ${id}\` (it runs the automated validations and records the evidence)`,
    );
  if (gaps.some((g) => g.needs === "confirmation"))
    steps.push(
      `ask the user to confirm the manual checks: the user runs \`playbook confirm ${id}\` in a terminal`,
    );
  return `${steps.join("; ")}.`;
}

function describeGap(gap: ProofGap): string {
  const name = gap.validation;
  if (gap.needs === "kind")
    return `${name} has no validation kind (automated, manual or hybrid); the plan must say how it is proven`;
  if (gap.needs === "evidence")
    return gap.why === "none"
      ? `${name}: no evidence record`
      : gap.why === "stale"
        ? `${name}: the evidence is stale (the subtask changed after it was verified)`
        : gap.why === "failed"
          ? `${name}: the last verification failed`
          : gap.why === "unreadable"
            ? `${name}: the evidence cannot be compared with the code, because git could not read the working tree`
            : `${name}: the evidence is stale (${gap.why === "code" ? "the code changed since verify" : "it names no code it proved"})`;
  return gap.why === "none"
    ? `${name}: no confirmation by the user`
    : `${name}: the confirmation is stale (the subtask changed after it)`;
}
