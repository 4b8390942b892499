import type { ProofModel, ProofRow } from "../records/proof-model.ts";

/** How far a playbook got, in claims and in proof: the line each worktree gets on the page. */
export interface ProofProgress {
  subtasks: number;
  /** Boxes ticked. */
  ticked: number;
  /** Subtasks whose every validation is proven (or confirmed) now. */
  proven: number;
  /** Boxes ticked without current proof. */
  unbacked: number;
}

/** Whether each of the subtask's validations is proven now: evidence current, a manual one confirmed as it is. */
export function isRowProven(row: ProofRow): boolean {
  return row.validations.every((v) =>
    v.kind === "manual"
      ? row.confirmation?.current === true
      : v.status === "proven",
  );
}

export function proofProgress(model: ProofModel): ProofProgress {
  const rows = model.phases.flatMap((p) => p.subtasks);
  const proven = rows.filter(isRowProven);
  return {
    subtasks: rows.length,
    ticked: rows.filter((r) => r.checked).length,
    proven: proven.length,
    unbacked: rows.filter((r) => r.checked && !isRowProven(r)).length,
  };
}
