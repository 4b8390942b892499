import { VALIDATION_NAMES, type ValidationName } from "../model/playbook.ts";
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
 * SPEC §5 #7 (every mode, fail-closed): a subtask turning `[x]`, or a validation turning PASS, needs proof the agent
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
      for (const phase of edit.after.phases)
        for (const subtask of phase.subtasks) {
          const before = findSubtask(edit.before, subtask.id);
          const missing = missingProof(ctx, edit, subtask, before);
          if (missing.length > 0)
            return block(
              `Blocked: ${describeTransition(subtask, before)} in \`${edit.path}\` needs proof that is missing: ${missing.join("; ")}. Next: run \`playbook verify ${subtask.id}\` (it runs the automated validations and records the evidence); manual checks need the user to run \`playbook confirm ${subtask.id}\` in a terminal. Then make this edit again.`,
            );
        }
    }
    return ALLOW;
  },
};

function describeTransition(
  subtask: SubtaskSummary,
  before: SubtaskSummary | null,
): string {
  return subtask.checked && !before?.checked
    ? `checking ${subtask.id}`
    : `marking validations of ${subtask.id} PASS`;
}

function missingProof(
  ctx: GuardContext,
  edit: PlaybookEdit,
  subtask: SubtaskSummary,
  before: SubtaskSummary | null,
): string[] {
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
  const missing: string[] = [];
  for (const name of names) {
    const validation = subtask.validations[name];
    if (!validation || validation.kind === "unspecified") {
      missing.push(
        `${name} has no validation kind (automated, manual or hybrid); the plan must say how it is proven`,
      );
      continue;
    }
    if (validation.kind !== "manual") {
      const evidence = ctx.records.latest({
        kind: "evidence",
        playbook: edit.path,
        target: subtask.id,
        validation: name,
      });
      if (!evidence) missing.push(`${name}: no evidence record`);
      else if (evidence.contentHash !== hash)
        missing.push(
          `${name}: the evidence is stale (the subtask changed after it was verified)`,
        );
      else if (evidence.verdict !== "PASS")
        missing.push(`${name}: the last verification failed`);
    }
    if (validation.kind !== "automated") {
      const confirmation = ctx.records.latest({
        kind: "confirmation",
        playbook: edit.path,
        target: subtask.id,
      });
      if (!confirmation) missing.push(`${name}: no confirmation by the user`);
      else if (confirmation.contentHash !== hash)
        missing.push(
          `${name}: the confirmation is stale (the subtask changed after it)`,
        );
    }
  }
  return missing;
}
