import type { PlaybookSummary } from "../cache/summary.ts";
import { VALIDATION_NAMES } from "../model/playbook.ts";
import type { RecordSet } from "./record.ts";

/**
 * What still keeps a playbook from being finished with proof (SPEC §7.4): a phase not `done` or without the critic's
 * current PASS, a subtask not checked or whose validations lack current passing evidence (automated, hybrid) or a
 * current user confirmation (manual, hybrid), a final task not checked. An empty list means the archive may start.
 * Records are compared by content hash, so proof of text that changed since does not count.
 */
export function findMissingProof(
  path: string,
  playbook: PlaybookSummary,
  records: RecordSet,
): string[] {
  const missing: string[] = [];
  if (playbook.phases.length === 0) missing.push("the playbook has no phases");
  for (const phase of playbook.phases) {
    if (phase.status !== "done")
      missing.push(`${phase.id} is ${phase.status}, not done`);
    else {
      const verdict = records.latest({
        kind: "critic",
        playbook: path,
        target: phase.id,
      });
      if (!verdict || verdict.contentHash !== playbook.hashes.phases[phase.id])
        missing.push(`${phase.id} has no current critic verdict`);
      else if (verdict.verdict !== "PASS")
        missing.push(`${phase.id}: the critic's last verdict is FAIL`);
    }
    for (const subtask of phase.subtasks) {
      if (!subtask.checked) {
        missing.push(`${subtask.id} is not checked`);
        continue;
      }
      const hash = playbook.hashes.subtasks[subtask.id];
      for (const name of VALIDATION_NAMES) {
        const validation = subtask.validations[name];
        if (!validation || validation.kind === "unspecified") {
          missing.push(`${subtask.id} ${name} has no validation kind`);
          continue;
        }
        if (validation.kind !== "manual") {
          const evidence = records.latest({
            kind: "evidence",
            playbook: path,
            target: subtask.id,
            validation: name,
          });
          if (
            !evidence ||
            evidence.contentHash !== hash ||
            evidence.verdict !== "PASS"
          )
            missing.push(
              `${subtask.id} ${name} has no current passing evidence`,
            );
        }
        if (validation.kind !== "automated") {
          const confirmation = records.latest({
            kind: "confirmation",
            playbook: path,
            target: subtask.id,
          });
          if (!confirmation || confirmation.contentHash !== hash)
            missing.push(
              `${subtask.id} ${name} has no current confirmation by the user`,
            );
        }
      }
    }
  }
  for (const task of playbook.finalTasks)
    if (!task.checked) missing.push(`final task ${task.id} is not checked`);
  return [...new Set(missing)];
}
