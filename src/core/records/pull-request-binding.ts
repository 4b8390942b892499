import type { PlaybookSummary } from "../model/summary.ts";
import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";
import type { Playbook } from "../model/playbook.ts";
import type { PlaybookRecord, RecordSet } from "./record.ts";

const UNBOUND = "record-unbound";

/**
 * What a record CI cannot re-run names as its basis (docs/ci.md): the review hash of the plan it was made under and
 * the fingerprint of the code it judged. `playbook confirm` and the critic's verdicts write both into `detail`.
 */
export interface RecordBasis {
  plan: string;
  tree: string;
}

/** The basis a record states, or null where it states none (written before records carried one, or forged). */
function basisOf(record: PlaybookRecord): Partial<RecordBasis> {
  const { plan, tree } = record.detail;
  return {
    ...(typeof plan === "string" ? { plan } : {}),
    ...(typeof tree === "string" ? { tree } : {}),
  };
}

/**
 * The confirmations and critic verdicts a pull request's playbook relies on that are not bound to the pull request
 * itself (`basis`: its plan's review hash and its tree's fingerprint). CI re-runs evidence; a person's confirmation
 * and the critic's judgement it can only take as recorded, so it takes them only for this plan and this code. The
 * review binds to the plan by its content hash already (`findUnbackedClaims`). Each at its line.
 */
export function findUnboundRecords(
  file: string,
  playbook: Playbook,
  summary: PlaybookSummary,
  records: RecordSet,
  basis: RecordBasis,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  // Like the other record codes (findUnbackedClaims), documented in docs/troubleshooting.md: no playbook fixture
  // alone can show it, it needs records.
  const report = (at: { line: number; column: number }, message: string) =>
    out.push(diagnosticAt(file, at, UNBOUND, "error", message));
  const why = (record: PlaybookRecord): string | null => {
    const stated = basisOf(record);
    if (stated.plan === undefined || stated.tree === undefined)
      return "it names no plan and code it was made for";
    if (stated.plan !== basis.plan)
      return "it was made for another version of the plan";
    if (stated.tree !== basis.tree)
      return "it was made for other code (the code changed since)";
    return null;
  };
  for (const phase of playbook.phases) {
    if (phase.status === "done") {
      const critic = records.latest({
        kind: "critic",
        playbook: file,
        target: phase.id,
      });
      const problem = critic === null ? null : why(critic);
      if (problem !== null)
        report(
          phase.labels["status"]?.span.start ?? phase.heading.start,
          `Unexpected critic verdict on ${phase.id} that does not bind to this pull request: ${problem}. Expected one for its plan and code. Run /crit ${phase.id} after the last change and commit the record.`,
        );
    }
    for (const subtask of phase.subtasks) {
      if (!subtask.checked) continue;
      const view = summary.phases
        .find((p) => p.id === phase.id)
        ?.subtasks.find((s) => s.id === subtask.id);
      const manual = Object.values(view?.validations ?? {}).some(
        (v) => v !== undefined && (v.kind === "manual" || v.kind === "hybrid"),
      );
      if (!manual) continue;
      const confirmation = records.latest({
        kind: "confirmation",
        playbook: file,
        target: subtask.id,
      });
      const problem = confirmation === null ? null : why(confirmation);
      if (problem !== null)
        report(
          subtask.checkbox.start,
          `Unexpected confirmation of ${subtask.id} that does not bind to this pull request: ${problem}. Expected one for its plan and code. A person runs \`playbook confirm ${subtask.id}\` after the last change and commits the record.`,
        );
    }
  }
  return out;
}
