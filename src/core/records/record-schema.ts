import * as v from "valibot";
import { VALIDATION_NAMES } from "../model/playbook.ts";
import { RECORD_KINDS, type PlaybookRecord } from "./record.ts";

const text = v.pipe(v.string(), v.minLength(1));

const recordSchema = v.pipe(
  v.object({
    kind: v.picklist(RECORD_KINDS),
    playbook: text,
    target: text,
    validation: v.exactOptional(v.picklist(VALIDATION_NAMES)),
    contentHash: text,
    verdict: v.picklist(["approve", "reject", "PASS", "FAIL"]),
    by: text,
    at: v.pipe(
      v.string(),
      v.check((at) => !Number.isNaN(Date.parse(at))),
    ),
    detail: v.custom<Record<string, unknown>>(
      (detail) =>
        typeof detail === "object" && detail !== null && !Array.isArray(detail),
    ),
  }),
  // A review says approve/reject, the others PASS/FAIL; only evidence names a validation.
  v.check(
    (r) =>
      (r.kind === "review") ===
        (r.verdict === "approve" || r.verdict === "reject") &&
      (r.kind === "evidence") === (r.validation !== undefined),
  ),
);

/** A record read from disk (untrusted JSON), or null when it is not a well-formed record. Never throws. */
export function parseRecord(json: unknown): PlaybookRecord | null {
  const result = v.safeParse(recordSchema, json);
  return result.success ? result.output : null;
}
