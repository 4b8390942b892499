import type { PlaybookSummary } from "../model/summary.ts";
import { sameReviewedPlan } from "../records/content-hash.ts";
import { ALLOW, block, context } from "./facts.ts";
import { playbookEdits } from "./playbook-changes.ts";
import type { Guard } from "./types.ts";

/**
 * docs/guards.md #9: after review, changing what was approved (done_when, criteria, validations, phases) is scope creep:
 * a warning, and in strict mode a block unless the same edit sets `reviewed: false` to ask for a new review.
 */
export const scopeGuard: Guard = {
  id: "scope",
  number: 9,
  events: ["PreToolUse"],
  check(ctx) {
    const notes: string[] = [];
    for (const edit of playbookEdits(ctx.changes)) {
      if (!edit.before?.meta.reviewed) continue;
      if (sameReviewedPlan(edit.before, edit.after)) continue;
      const what = describeScopeChange(edit.before, edit.after);
      if (!edit.after.meta.reviewed) {
        notes.push(
          `\`${edit.path}\`: ${what} changed and \`reviewed\` is now false: the reviewer must approve it again before work continues.`,
        );
        continue;
      }
      if (ctx.security === "strict")
        return block(
          `Blocked: this edit changes ${what} of the reviewed playbook \`${edit.path}\`. Next: if the change is needed, make the same edit with \`reviewed: false\` and have the reviewer approve the new plan; otherwise keep the approved text.`,
        );
      notes.push(
        `\`${edit.path}\`: ${what} changed after review; the review no longer matches, so the reviewer must approve the plan again.`,
      );
    }
    return notes.length > 0 ? context(notes.join("\n")) : ALLOW;
  },
};

function describeScopeChange(
  before: PlaybookSummary,
  after: PlaybookSummary,
): string {
  const parts: string[] = [];
  if (JSON.stringify(before.goal) !== JSON.stringify(after.goal))
    parts.push("the goal or done_when");
  const criteria = (p: PlaybookSummary) =>
    JSON.stringify(
      p.phases.flatMap((ph) => ph.subtasks.map((s) => [s.id, s.criterion])),
    );
  if (criteria(before) !== criteria(after)) parts.push("subtask criteria");
  const validations = (p: PlaybookSummary) =>
    JSON.stringify(
      p.phases.flatMap((ph) =>
        ph.subtasks.map((s) =>
          Object.entries(s.validations).map(([n, v]) => [n, v.kind, v.text]),
        ),
      ),
    );
  if (validations(before) !== validations(after)) parts.push("validations");
  return parts.length > 0 ? parts.join(", ") : "the phases";
}
