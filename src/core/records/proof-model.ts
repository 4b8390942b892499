import type { PlaybookSummary } from "../model/summary.ts";
import {
  VALIDATION_NAMES,
  type PhaseStatus,
  type ValidationKind,
  type ValidationName,
} from "../model/playbook.ts";
import {
  criticState,
  findProofGaps,
  reviewState,
  type ProofGap,
  type TreeState,
} from "./proof-state.ts";
import type { PlaybookRecord, RecordSet } from "./record.ts";
import { commandOf } from "./validation-command.ts";

/**
 * What was proven for one playbook, by which command, on which tree, and who approved which plan: the facts the pull
 * request's body, the CI job summary and the local view show. Plain data, renderer-neutral; text the agent wrote
 * (criteria, commands, the critic's evidence) is kept as written, and each renderer escapes it for its medium.
 */
export interface ProofModel {
  /** The playbook's path (where it is now; its records are filed under the path it was worked on). */
  playbook: string;
  goal: { summary: string | null; doneWhen: string[] };
  review: ProofApproval;
  phases: ProofPhase[];
  finalTasks: { id: string; checked: boolean; text: string }[];
  /** What the archive committed and what it left alone; null outside the archive. */
  files: { committed: string[]; leftAlone: string[] } | null;
  /** Whether the validations were run again (the rows then say what each re-run found). */
  rerun: boolean;
}

/** The reviewer's latest verdict on the plan, and whether it is about the plan as it is now. */
export interface ProofApproval {
  /** `approved`/`rejected`: the latest verdict, of the plan as it is now; `stale`: of an earlier plan; `none`. */
  state: "approved" | "rejected" | "stale" | "none";
  verdict: "approve" | "reject" | null;
  by: string | null;
  at: string | null;
  /** The hash of the plan the verdict was given on; null without a verdict. */
  planHash: string | null;
  /** The hash of the plan as it is now. */
  currentPlanHash: string;
}

export interface ProofPhase {
  id: string;
  name: string;
  status: PhaseStatus;
  critic: ProofCritic;
  subtasks: ProofRow[];
}

/** The critic's latest verdict on a phase: `PASS`/`FAIL` of the phase as it is now, `stale` of an earlier version. */
export interface ProofCritic {
  state: "PASS" | "FAIL" | "stale" | "none";
  by: string | null;
  at: string | null;
  /** What the critic gave as its evidence, as it wrote it. */
  evidence: string | null;
}

/** One subtask: its criterion, each validation with the record behind it, and what a re-run found. */
export interface ProofRow {
  id: string;
  checked: boolean;
  criterion: string;
  validations: ProofValidation[];
  /** The user's latest confirmation, for manual and hybrid validations; null when none was asked for or made. */
  confirmation: ProofConfirmation | null;
  /** With a re-run: every automated validation re-proved, one failed, or none re-run (unchecked, or manual only). */
  rerun: "re-proved" | "failed" | "not re-run" | null;
}

export interface ProofValidation {
  name: ValidationName;
  kind: ValidationKind;
  /** The shell command for automated and hybrid validations; the check a person makes for manual ones. */
  command: string;
  /**
   * Whether it counts as proof now: `proven`, or why not (no record, a record of an earlier version of the subtask,
   * a failed one, evidence of other code, see {@link ProofGap}); manual validations are judged by the confirmation.
   */
  status:
    "proven" | "none" | "stale" | "failed" | "code" | "untied" | "unreadable";
  /** The evidence record, for automated and hybrid validations that have one. */
  evidence: ProofEvidence | null;
  /** With a re-run of this validation: its verdict and why it disagrees with the evidence (null: it agrees). */
  rerun: { verdict: "PASS" | "FAIL"; problem: string | null } | null;
}

export interface ProofEvidence {
  verdict: "PASS" | "FAIL";
  by: string;
  at: string;
  exitCode: number | null;
  /** The digest of the command's output (`sha256:…`), when it was recorded. */
  outputDigest: string | null;
  /** The fingerprint of the working tree the command ran on; null when the record names none. */
  tree: string | null;
  /** The commit the final proof ran on, for evidence the archive wrote. */
  commit: string | null;
  sandboxed: boolean | null;
}

export interface ProofConfirmation {
  by: string;
  at: string;
  /** Whether it confirms the subtask as it is now. */
  current: boolean;
}

/** One validation run again (`playbook check --rerun`), as `RerunRow` reports it. */
export interface ProofRerunResult {
  subtask: string;
  validation: ValidationName;
  rerun: "PASS" | "FAIL";
  problem: string | null;
}

export interface ProofModelInput {
  /** The path the playbook's records are filed under: the one it was worked on. */
  path: string;
  /** Where the playbook is now, when not at `path` (archived). */
  file?: string;
  playbook: PlaybookSummary;
  records: RecordSet;
  /** The working tree now, when known: evidence of other code then counts as `code`. */
  tree?: TreeState;
  /** The validations run again; absent when there was no re-run. */
  rerun?: readonly ProofRerunResult[];
  files?: { committed: string[]; leftAlone: string[] };
}

/**
 * The proof of `playbook` as its records show it (docs/archive.md, docs/ci.md): per phase the critic's verdict, per
 * subtask each validation with its evidence (verdict, output digest, tree, time) or the user's confirmation, and the
 * reviewer's approval with the plan hash it approved. Judged as the guards judge it (proof-state.ts).
 */
export function toProofModel(input: ProofModelInput): ProofModel {
  const { path, playbook, records } = input;
  const review = records.latest({
    kind: "review",
    playbook: path,
    target: "playbook",
  });
  return {
    playbook: input.file ?? path,
    goal: { summary: playbook.goal.summary, doneWhen: playbook.goal.doneWhen },
    review: {
      state: reviewState(path, playbook, records),
      verdict:
        review?.verdict === "approve" || review?.verdict === "reject"
          ? review.verdict
          : null,
      by: review?.by ?? null,
      at: review?.at ?? null,
      planHash: review?.contentHash ?? null,
      currentPlanHash: playbook.hashes.review,
    },
    phases: playbook.phases.map((phase) => {
      const critic = records.latest({
        kind: "critic",
        playbook: path,
        target: phase.id,
      });
      return {
        id: phase.id,
        name: phase.name,
        status: phase.status,
        critic: {
          state: criticState(path, playbook, phase.id, records),
          by: critic?.by ?? null,
          at: critic?.at ?? null,
          evidence: textOf(critic?.detail["evidence"]),
        },
        subtasks: phase.subtasks.map((subtask) =>
          toRow(input, subtask, playbook.hashes.subtasks[subtask.id] ?? null),
        ),
      };
    }),
    finalTasks: playbook.finalTasks.map(({ id, checked, text }) => ({
      id,
      checked,
      text,
    })),
    files: input.files ?? null,
    rerun: input.rerun !== undefined,
  };
}

type SubtaskSummary = PlaybookSummary["phases"][number]["subtasks"][number];

function toRow(
  input: ProofModelInput,
  subtask: SubtaskSummary,
  hash: string | null,
): ProofRow {
  const { path, records } = input;
  const validations: ProofValidation[] = [];
  for (const name of VALIDATION_NAMES) {
    const validation = subtask.validations[name];
    if (!validation) continue;
    const automated =
      validation.kind === "automated" || validation.kind === "hybrid";
    const evidence = automated
      ? records.latest({
          kind: "evidence",
          playbook: path,
          target: subtask.id,
          validation: name,
        })
      : null;
    const rerun = input.rerun?.find(
      (r) => r.subtask === subtask.id && r.validation === name,
    );
    validations.push({
      name,
      kind: validation.kind,
      command: automated
        ? commandOf(validation.text, validation.kind)
        : validation.text,
      status: statusOf(
        findProofGaps(path, subtask, hash, records, [name], input.tree),
      ),
      evidence: evidence && toEvidence(evidence),
      rerun: rerun ? { verdict: rerun.rerun, problem: rerun.problem } : null,
    });
  }
  const asksPerson = validations.some(
    (v) => v.kind === "manual" || v.kind === "hybrid",
  );
  const confirmation = asksPerson
    ? records.latest({
        kind: "confirmation",
        playbook: path,
        target: subtask.id,
      })
    : null;
  return {
    id: subtask.id,
    checked: subtask.checked,
    criterion: subtask.criterion,
    validations,
    confirmation: confirmation && {
      by: confirmation.by,
      at: confirmation.at,
      current: hash !== null && confirmation.contentHash === hash,
    },
    rerun: input.rerun === undefined ? null : rowRerun(validations),
  };
}

/** The first gap decides: evidence before confirmation, as findProofGaps lists them. */
function statusOf(gaps: readonly ProofGap[]): ProofValidation["status"] {
  const gap = gaps[0];
  if (!gap) return "proven";
  return gap.needs === "kind" ? "none" : gap.why;
}

function rowRerun(validations: readonly ProofValidation[]): ProofRow["rerun"] {
  const ran = validations.filter((v) => v.rerun !== null);
  if (ran.length === 0) return "not re-run";
  return ran.every((v) => v.rerun?.problem === null) ? "re-proved" : "failed";
}

function toEvidence(record: PlaybookRecord): ProofEvidence {
  const { detail } = record;
  return {
    verdict: record.verdict === "PASS" ? "PASS" : "FAIL",
    by: record.by,
    at: record.at,
    exitCode:
      typeof detail["exitCode"] === "number" ? detail["exitCode"] : null,
    outputDigest: textOf(detail["outputDigest"]),
    tree: textOf(detail["tree"]),
    commit: textOf(detail["commit"]),
    sandboxed:
      typeof detail["sandboxed"] === "boolean" ? detail["sandboxed"] : null,
  };
}

function textOf(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
