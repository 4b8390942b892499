import type { PlaybookSummary } from "../model/summary.ts";
import {
  criticState,
  findProofGaps,
  isCodeGap,
  unapprovedPlan,
  unreadableTree,
  type TreeState,
} from "./proof-state.ts";
import type { RecordSet } from "./record.ts";

/**
 * What still keeps a playbook from being finished with proof (docs/sessions.md): a phase not `done` or without the critic's
 * current PASS, a subtask not checked or whose validations lack current passing evidence (automated, hybrid) or a
 * current user confirmation (manual, hybrid), a final task not checked. An empty list means the archive may start.
 * Records are compared by content hash, so proof of text that changed since does not count; with `tree` (the working
 * tree's fingerprint, null outside git) evidence of other code does not count either, nor any evidence while git
 * cannot read the tree.
 */
export function findMissingProof(
  path: string,
  playbook: PlaybookSummary,
  records: RecordSet,
  tree?: TreeState,
): string[] {
  const missing: string[] = [];
  const unreadable = unreadableTree(tree);
  if (playbook.phases.length === 0) missing.push("the playbook has no phases");
  const unapproved = unapprovedPlan(path, playbook, records);
  if (unapproved !== null)
    missing.push(
      `no proof counts while ${unapproved} (run /playbook-review so the reviewer approves the plan as it is now)`,
    );
  for (const phase of playbook.phases) {
    if (phase.status !== "done")
      missing.push(`${phase.id} is ${phase.status}, not done`);
    else {
      const critic = criticState(path, playbook, phase.id, records);
      if (critic === "FAIL")
        missing.push(`${phase.id}: the critic's last verdict is FAIL`);
      else if (critic !== "PASS")
        missing.push(`${phase.id} has no current critic verdict`);
    }
    for (const subtask of phase.subtasks) {
      if (!subtask.checked) {
        missing.push(`${subtask.id} is not checked`);
        continue;
      }
      const hash = playbook.hashes.subtasks[subtask.id] ?? null;
      for (const gap of findProofGaps(
        path,
        subtask,
        hash,
        records,
        undefined,
        tree,
      ))
        missing.push(
          `${subtask.id} ${gap.validation} ${gap.needs === "kind" ? "has no validation kind" : gap.needs === "confirmation" ? "has no current confirmation by the user" : gap.why === "unreadable" ? `has evidence that cannot be compared with the code: git could not read the working tree (${unreadable ?? ""}; fix what \`git status\` says, then try again)` : isCodeGap(gap) ? `has stale evidence (the code changed since verify: run \`npx --no playbook verify ${subtask.id}\` again)` : "has no current passing evidence"}`,
        );
    }
  }
  for (const task of playbook.finalTasks)
    if (!task.checked) missing.push(`final task ${task.id} is not checked`);
  return [...new Set(missing)];
}
