import type { PlaybookSummary } from "../model/summary.ts";
import type { RecordSet } from "./record.ts";

/**
 * Whether work may start on the playbook: `reviewed: true` backed by a current approval, and a `## context`. The one
 * reading the playbook guard, the next step, the status line and `playbook status` share, so they never disagree.
 */
export type PlanGate =
  | { open: true }
  | {
      open: false;
      missing:
        "write" | "review" | "fresh-review" | "forged-review" | "context";
      /** What is wrong, as a sentence about `path`. */
      reason: string;
      /** What to do, without "Next:". */
      next: string;
    };

export function planGate(
  path: string,
  playbook: PlaybookSummary,
  records: RecordSet,
): PlanGate {
  const review = records.latest({
    kind: "review",
    playbook: path,
    target: "playbook",
  });
  const approved =
    review !== null &&
    review.verdict === "approve" &&
    review.contentHash === playbook.hashes.review;
  const errors = playbook.diagnostics.filter(
    (d) => d.severity === "error",
  ).length;
  // A plan with lint errors cannot be approved yet (`review approve` lints first): writing it comes before review.
  if (!playbook.meta.reviewed && errors > 0)
    return {
      open: false,
      missing: "write",
      reason: `\`${path}\` is not written yet (${errors} lint error${errors === 1 ? "" : "s"}).`,
      next: `fill it in (the pm subagent, from the understanding check) until \`playbook lint\` is clean, then have the reviewer approve it.`,
    };
  if (!playbook.meta.reviewed)
    return {
      open: false,
      missing: "review",
      reason: `\`${path}\` is not reviewed yet.`,
      next: `have the reviewer subagent review ${path} (/playbook-review); it runs \`playbook review approve\`.`,
    };
  if (!approved)
    return {
      open: false,
      missing: review ? "fresh-review" : "forged-review",
      reason: `\`reviewed: true\` in \`${path}\` is not backed by a current review record${review ? " (the plan changed after the review, or it was rejected)" : ""}.`,
      next: `have the reviewer subagent review ${path} again (/playbook-review); it runs \`playbook review approve\`.`,
    };
  if (!playbook.hasContext)
    return {
      open: false,
      missing: "context",
      reason: `\`${path}\` has no \`## context\`.`,
      next: "run Skill(understanding-check) and write the 5W1H answers into `## context`.",
    };
  return { open: true };
}
