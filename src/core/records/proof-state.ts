import type { PlaybookSummary } from "../model/summary.ts";
import { VALIDATION_NAMES, type ValidationName } from "../model/playbook.ts";
import type { PlaybookRecord, RecordSet } from "./record.ts";

type SubtaskSummary = PlaybookSummary["phases"][number]["subtasks"][number];

/**
 * Why a validation of a subtask is not proven: no kind to prove it by, or a record that is missing, stale or failed.
 * Evidence is also stale when the code changed since (`code`: its tree fingerprint is not the current one), when it
 * names no tree at all (`untied`: written before playbook recorded the tree it proved), and when the tree cannot be
 * read now (`unreadable`: see {@link TreeState}).
 */
export type ProofGap =
  | { validation: ValidationName; needs: "kind" }
  | {
      validation: ValidationName;
      needs: "evidence" | "confirmation";
      why: "none" | "stale" | "failed" | "code" | "untied" | "unreadable";
    };

/**
 * The working tree now, as evidence is compared with it (docs/guards.md): its fingerprint; null where nothing can be
 * compared (no git repository); or, in a repository git could not read (a garbled `.git/HEAD`, a broken index, a
 * timeout), git's words. No evidence proves an unreadable tree: that git cannot read it now says nothing about the code.
 */
export type TreeState = string | null | { unreadable: string };

/** git's words when the tree could not be read, else null. */
export function unreadableTree(tree: TreeState | undefined): string | null {
  return typeof tree === "object" && tree !== null ? tree.unreadable : null;
}

/**
 * Whether evidence proved the working tree as it is now (`tree`, see {@link TreeState}): null when it did or nothing
 * can be compared, else why not.
 */
export function treeMismatch(
  evidence: PlaybookRecord,
  tree: TreeState,
): "code" | "untied" | "unreadable" | null {
  if (tree === null) return null;
  if (typeof tree === "object") return "unreadable";
  const proved = evidence.detail["tree"];
  return typeof proved !== "string"
    ? "untied"
    : proved === tree
      ? null
      : "code";
}

/** Whether a gap is evidence that does not prove the code as it is now (changed, untied, or not readable). */
export function isCodeGap(gap: ProofGap): boolean {
  return (
    gap.needs !== "kind" &&
    (gap.why === "code" || gap.why === "untied" || gap.why === "unreadable")
  );
}

/**
 * What is missing for `subtask`'s validations (`names`, all three unless told) to count as proven (docs/guards.md): a
 * current PASS evidence record for each automated or hybrid one, a current confirmation by the user for each manual
 * or hybrid one. `hash` is the subtask's content hash now; records of other content are stale. With `tree` (the
 * current tree fingerprint, see {@link treeMismatch}), evidence of other code is stale too. Empty: proven.
 */
export function findProofGaps(
  path: string,
  subtask: SubtaskSummary,
  hash: string | null,
  records: RecordSet,
  names: readonly ValidationName[] = VALIDATION_NAMES,
  tree?: TreeState,
): ProofGap[] {
  const gaps: ProofGap[] = [];
  for (const name of names) {
    const validation = subtask.validations[name];
    if (!validation || validation.kind === "unspecified") {
      gaps.push({ validation: name, needs: "kind" });
      continue;
    }
    if (validation.kind !== "manual") {
      const evidence = records.latest({
        kind: "evidence",
        playbook: path,
        target: subtask.id,
        validation: name,
      });
      const why = !evidence
        ? "none"
        : evidence.contentHash !== hash
          ? "stale"
          : evidence.verdict !== "PASS"
            ? "failed"
            : tree === undefined
              ? null
              : treeMismatch(evidence, tree);
      if (why) gaps.push({ validation: name, needs: "evidence", why });
    }
    if (validation.kind !== "automated") {
      const confirmation = records.latest({
        kind: "confirmation",
        playbook: path,
        target: subtask.id,
      });
      const why = !confirmation
        ? "none"
        : confirmation.contentHash !== hash
          ? "stale"
          : null;
      if (why) gaps.push({ validation: name, needs: "confirmation", why });
    }
  }
  return gaps;
}

/** The critic's verdict on a phase as it is now: its current PASS or FAIL, `stale` when the phase changed since, or `none`. */
export function criticState(
  path: string,
  playbook: PlaybookSummary,
  phase: string,
  records: RecordSet,
): "PASS" | "FAIL" | "stale" | "none" {
  const verdict = records.latest({
    kind: "critic",
    playbook: path,
    target: phase,
  });
  if (!verdict) return "none";
  if (verdict.contentHash !== playbook.hashes.phases[phase]) return "stale";
  return verdict.verdict === "PASS" ? "PASS" : "FAIL";
}

/** The reviewer's verdict on the plan as it is now: `approved`, `rejected`, `stale` when the plan changed since, or `none`. */
export function reviewState(
  path: string,
  playbook: PlaybookSummary,
  records: RecordSet,
): "approved" | "rejected" | "stale" | "none" {
  const review = records.latest({
    kind: "review",
    playbook: path,
    target: "playbook",
  });
  if (!review) return "none";
  if (review.contentHash !== playbook.hashes.review) return "stale";
  return review.verdict === "approve" ? "approved" : "rejected";
}

/**
 * Why no proof can count for the plan as it is now (docs/guards.md): proof is taken for validations, and only the
 * validations the reviewer approved are the task; with `reviewed: false` and validations of its own choosing the
 * agent could otherwise prove `true`. Null when the latest review approves exactly this plan.
 */
export function unapprovedPlan(
  path: string,
  playbook: PlaybookSummary,
  records: RecordSet,
): string | null {
  const state = reviewState(path, playbook, records);
  return state === "approved"
    ? null
    : state === "stale"
      ? "the plan changed after the reviewer approved it"
      : state === "rejected"
        ? "the reviewer's last verdict on the plan is reject"
        : "the reviewer has not approved the plan";
}

/** The step that lifts {@link unapprovedPlan}, without "Next:". */
export function approvalStep(path: string): string {
  return `have the reviewer subagent review ${path} (/playbook-review); it runs \`playbook review approve\``;
}
