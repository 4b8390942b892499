import type { PlaybookSummary } from "../model/summary.ts";
import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";
import type { Playbook } from "../model/playbook.ts";
import {
  criticState,
  findProofGaps,
  isCodeGap,
  reviewState,
  unapprovedPlan,
  unreadableTree,
  type TreeState,
} from "./proof-state.ts";
import type { RecordSet } from "./record.ts";

/**
 * What a playbook claims without a current record behind it (docs/guards.md, for `playbook check` in CI): `reviewed: true`
 * without the reviewer's approval of this content, a checked subtask whose validations lack current passing evidence
 * or the user's confirmation (with `tree`, the working tree's fingerprint: evidence of the code as it is now), a phase
 * `done` without the critic's current PASS, and any such claim in a plan the reviewer has not approved as it is now.
 * Each at its line.
 */
export function findUnbackedClaims(
  file: string,
  playbook: Playbook,
  summary: PlaybookSummary,
  records: RecordSet,
  tree?: TreeState,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (
    at: { line: number; column: number },
    code: string,
    message: string,
  ) => out.push(diagnosticAt(file, at, code, "error", message));
  if (playbook.meta.reviewed) {
    const review = reviewState(file, summary, records);
    if (review !== "approved")
      report(
        playbook.sections.meta?.fields["reviewed"]?.start ?? {
          line: 1,
          column: 1,
        },
        "reviewed-unbacked",
        `Unexpected \`reviewed: true\` without ${review === "stale" ? "an approval of the current plan (it changed since)" : "the reviewer's approval"}, expected a review record for this content. Have the reviewer run \`playbook review approve\`.`,
      );
  }
  // With `reviewed: true` the line above already says it; otherwise the first claim carries it.
  const unapproved = playbook.meta.reviewed
    ? null
    : unapprovedPlan(file, summary, records);
  let approvalReported = false;
  const reportUnapproved = (at: { line: number; column: number }) => {
    if (unapproved === null || approvalReported) return;
    approvalReported = true;
    report(
      at,
      "proof-unapproved",
      `Unexpected checked boxes or done phases in a plan the reviewer has not approved as it is now (${unapproved}), expected proof only for the approved plan. Have the reviewer run \`playbook review approve\`, then prove the work again.`,
    );
  };
  for (const phase of playbook.phases) {
    if (phase.status === "done")
      reportUnapproved(
        phase.labels["status"]?.span.start ?? phase.heading.start,
      );
    for (const subtask of phase.subtasks)
      if (subtask.checked) reportUnapproved(subtask.checkbox.start);
  }
  for (const phase of playbook.phases) {
    if (phase.status === "done") {
      const critic = criticState(file, summary, phase.id, records);
      if (critic !== "PASS")
        report(
          phase.labels["status"]?.span.start ?? phase.heading.start,
          "done-unbacked",
          `Unexpected phase ${phase.id} \`done\` without ${critic === "FAIL" ? "a PASS (the critic's last verdict is FAIL)" : "the critic's current verdict"}, expected a critic PASS for its current content. Run /crit ${phase.id}.`,
        );
    }
    for (const subtask of phase.subtasks) {
      if (!subtask.checked) continue;
      const view = summary.phases
        .find((p) => p.id === phase.id)
        ?.subtasks.find((s) => s.id === subtask.id);
      if (!view) continue;
      const missing = findProofGaps(
        file,
        view,
        summary.hashes.subtasks[subtask.id] ?? null,
        records,
        undefined,
        tree,
      ).flatMap((gap) =>
        gap.needs === "kind"
          ? []
          : [
              `${gap.validation}: ${gap.needs === "confirmation" ? "the user's confirmation" : gap.why === "unreadable" ? `evidence of the code as it is now (git could not read the working tree: ${unreadableTree(tree) ?? ""})` : isCodeGap(gap) ? "evidence of the code as it is now (the code changed since verify)" : "passing evidence"}`,
            ],
      );
      if (missing.length > 0)
        report(
          subtask.checkbox.start,
          "checked-unbacked",
          `Unexpected checked ${subtask.id} without current proof (${missing.join("; ")}), expected a record for its current text. Run \`playbook verify ${subtask.id}\`; manual checks need \`playbook confirm ${subtask.id}\` by a person.`,
        );
    }
  }
  return out;
}
