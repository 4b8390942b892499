import type { PlaybookSummary } from "../model/summary.ts";
import {
  approvalStep,
  findProofGaps,
  isCodeGap,
  unapprovedPlan,
  unreadableTree,
} from "../records/proof-state.ts";
import { ALLOW, block } from "./facts.ts";
import { playbookEdits } from "./playbook-changes.ts";
import type { Guard, GuardContext } from "./types.ts";

/**
 * docs/guards.md #8 (every mode, fail-closed): a phase turning `done` needs the critic's PASS for its current content,
 * and the evidence of its subtasks must prove the code as it is now.
 */
export const criticGuard: Guard = {
  id: "critic",
  number: 8,
  events: ["PreToolUse"],
  failClosed: true,
  check(ctx) {
    for (const edit of playbookEdits(ctx.changes)) {
      const ids = edit.after.phases.map((p) => p.id);
      for (const phase of edit.after.phases) {
        if (phase.status !== "done") continue;
        if (ids.indexOf(phase.id) !== ids.lastIndexOf(phase.id))
          return block(
            `Blocked: phase ${phase.id} appears more than once in \`${edit.path}\`, so the critic's verdict for it cannot be matched. Next: give each phase its own id.`,
          );
        const before = edit.before?.phases.find((p) => p.id === phase.id);
        if (before?.status === "done") continue;
        const open = phase.subtasks.filter((s) => !s.checked).map((s) => s.id);
        if (open.length > 0)
          return block(
            `Blocked: phase ${phase.id} in \`${edit.path}\` cannot be done while ${open.join(", ")} ${open.length === 1 ? "is" : "are"} open. Next: finish and check them first (\`playbook verify <subtask>\`).`,
          );
        const unapproved = unapprovedPlan(edit.path, edit.after, ctx.records);
        if (unapproved !== null)
          return block(
            `Blocked: phase ${phase.id} in \`${edit.path}\` can be done only in the plan as the reviewer approved it, and ${unapproved}. Next: ${approvalStep(edit.path)}, then prove the phase again (\`npx --no playbook verify ${phase.id}\`, /crit ${phase.id}) and set the status again.`,
          );
        const record = ctx.records.latest({
          kind: "critic",
          playbook: edit.path,
          target: phase.id,
        });
        const problem = !record
          ? "the critic has not judged it"
          : record.contentHash !== edit.after.hashes.phases[phase.id]
            ? "the critic's verdict is stale (the phase changed after it)"
            : record.verdict !== "PASS"
              ? `the critic's verdict is ${record.verdict}`
              : null;
        // A current FAIL comes first: the fix is the next step, and it changes the code the evidence proved anyway.
        const failed =
          record !== undefined &&
          problem?.startsWith("the critic's verdict is ");
        if (!failed) {
          const stale = staleEvidence(
            ctx,
            edit.path,
            edit.after,
            phase.subtasks,
          );
          const unreadable = unreadableTree(ctx.tree);
          if (stale.length > 0 && unreadable !== null)
            return block(
              `Blocked: phase ${phase.id} cannot be done: git could not read the working tree (${unreadable}), so the evidence of ${stale.join(", ")} cannot be compared with the code. Next: make git able to read it again (\`git status\` shows what it says), then set the status again; if the code changed meanwhile, run \`npx --no playbook verify ${phase.id}\` first.`,
            );
          if (stale.length > 0)
            return block(
              `Blocked: phase ${phase.id} cannot be done: the evidence of ${stale.join(", ")} is stale (the code changed since verify). Next: run \`npx --no playbook verify ${phase.id}\` (it proves every subtask of the phase on the code as it is now), then set the status again.`,
            );
        }
        if (problem)
          return block(
            `Blocked: setting phase ${phase.id} in \`${edit.path}\` to done needs the critic's PASS, and ${problem}. Next: run /crit so the critic subagent verifies ${phase.id} and records its verdict, then set the status again.`,
          );
      }
    }
    return ALLOW;
  },
};

/** `<subtask> <validation>` of each evidence record that proved other code than the tree has now. */
function staleEvidence(
  ctx: GuardContext,
  path: string,
  after: PlaybookSummary,
  subtasks: PlaybookSummary["phases"][number]["subtasks"],
): string[] {
  return subtasks.flatMap((s) =>
    findProofGaps(
      path,
      s,
      after.hashes.subtasks[s.id] ?? null,
      ctx.records,
      undefined,
      ctx.tree,
    ).flatMap((g) => (isCodeGap(g) ? [`${s.id} ${g.validation}`] : [])),
  );
}
