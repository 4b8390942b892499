import type { ValidationName } from "../model/playbook.ts";

export const RECORD_KINDS = [
  "review",
  "critic",
  "evidence",
  "confirmation",
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** `approve`/`reject` for reviews, `PASS`/`FAIL` for critic verdicts, evidence and confirmations. */
export type RecordVerdict = "approve" | "reject" | "PASS" | "FAIL";

/**
 * Proof the agent cannot type (docs/guards.md): written only by `playbook review|crit|verify|confirm` and by the hook
 * (the critic's SubagentStop verdict), stored under `.claude/playbook/records/`.
 */
export interface PlaybookRecord {
  kind: RecordKind;
  /** The playbook's repository-relative posix path, e.g. `plan/playbook-login.md`. */
  playbook: string;
  /** `playbook` for a review, a phase id for a critic verdict, a subtask id for evidence and confirmations. */
  target: string;
  /** The validation an evidence record proves; absent for other kinds. */
  validation?: ValidationName;
  /** Hash of the judged content when the record was made (see content-hash.ts); a different hash now = stale. */
  contentHash: string;
  verdict: RecordVerdict;
  /** The subagent's `agent_type` (`reviewer`, `critic`), `playbook-verify`, or `user`. */
  by: string;
  /** ISO 8601 time the record was made. */
  at: string;
  /** Kind-specific facts: evidence {command, exitCode, durationMs, outputDigest}, critic {evidence}, review {notes}. */
  detail: Record<string, unknown>;
}

/** What identifies the latest record of one judgement: newer records of the same key replace older ones. */
export interface RecordKey {
  kind: RecordKind;
  playbook: string;
  target: string;
  validation?: ValidationName;
}

/** The records a guard can see, already loaded: pure lookups only. */
export interface RecordSet {
  /** The newest record with exactly this key, or null. */
  latest(key: RecordKey): PlaybookRecord | null;
}
