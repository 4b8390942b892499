import type { PlaybookSummary } from "../cache/summary.ts";
import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";
import { VALIDATION_NAMES, type Playbook } from "../model/playbook.ts";
import type { RecordSet } from "./record.ts";

/**
 * What a playbook claims without a current record behind it (SPEC §6, for `playbook check` in CI): `reviewed: true`
 * without the reviewer's approval of this content, a checked subtask whose validations lack current passing evidence
 * or the user's confirmation, a phase `done` without the critic's current PASS. Each at its line.
 */
export function findUnbackedClaims(
  file: string,
  playbook: Playbook,
  summary: PlaybookSummary,
  records: RecordSet,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (
    at: { line: number; column: number },
    code: string,
    message: string,
  ) => out.push(diagnosticAt(file, at, code, "error", message));
  if (playbook.meta.reviewed) {
    const review = records.latest({
      kind: "review",
      playbook: file,
      target: "playbook",
    });
    const at = playbook.sections.meta?.fields["reviewed"]?.start ?? {
      line: 1,
      column: 1,
    };
    if (
      !review ||
      review.verdict !== "approve" ||
      review.contentHash !== summary.hashes.review
    )
      report(
        at,
        "reviewed-unbacked",
        `Unexpected \`reviewed: true\` without ${review && review.verdict === "approve" ? "an approval of the current plan (it changed since)" : "the reviewer's approval"}, expected a review record for this content. Have the reviewer run \`playbook review approve\`.`,
      );
  }
  for (const phase of playbook.phases) {
    if (phase.status === "done") {
      const verdict = records.latest({
        kind: "critic",
        playbook: file,
        target: phase.id,
      });
      const current =
        verdict && verdict.contentHash === summary.hashes.phases[phase.id];
      if (!current || verdict.verdict !== "PASS")
        report(
          phase.labels["status"]?.span.start ?? phase.heading.start,
          "done-unbacked",
          `Unexpected phase ${phase.id} \`done\` without ${current ? "a PASS (the critic's last verdict is FAIL)" : "the critic's current verdict"}, expected a critic PASS for its current content. Run /crit ${phase.id}.`,
        );
    }
    for (const subtask of phase.subtasks) {
      if (!subtask.checked) continue;
      const hash = summary.hashes.subtasks[subtask.id];
      const missing: string[] = [];
      for (const name of VALIDATION_NAMES) {
        const validation = subtask.validations[name];
        if (!validation || validation.kind === "unspecified") continue;
        if (validation.kind !== "manual") {
          const evidence = records.latest({
            kind: "evidence",
            playbook: file,
            target: subtask.id,
            validation: name,
          });
          if (
            !evidence ||
            evidence.contentHash !== hash ||
            evidence.verdict !== "PASS"
          )
            missing.push(`${name}: passing evidence`);
        }
        if (validation.kind !== "automated") {
          const confirmation = records.latest({
            kind: "confirmation",
            playbook: file,
            target: subtask.id,
          });
          if (!confirmation || confirmation.contentHash !== hash)
            missing.push(`${name}: the user's confirmation`);
        }
      }
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
