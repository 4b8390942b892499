import { describe, expect, it } from "vitest";
import { summarizePlaybook } from "../../../../src/core/cache/summary.ts";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import { findMissingProof } from "../../../../src/core/records/completion.ts";
import type { PlaybookRecord } from "../../../../src/core/records/record.ts";
import { createRecordSet } from "../../../../src/core/records/record-set.ts";
import { findUnbackedClaims } from "../../../../src/core/records/unbacked-claims.ts";
import { FINISHED_PLAYBOOK } from "../../../helpers/finished-repo.ts";
import { BOOK, recordFor } from "../../../helpers/guard-context.ts";

/** The finished sample with every proof of its own content, and the reviewer's approval of `approvedText`. */
function world(text: string, approvedText: string | null) {
  const parsed = parsePlaybook(text, BOOK).value;
  const summary = summarizePlaybook(parsed, []);
  const approved = summarizePlaybook(
    parsePlaybook(approvedText ?? text, BOOK).value,
    [],
  );
  const records: PlaybookRecord[] = [];
  if (approvedText !== null)
    records.push(
      recordFor(approved, {
        kind: "review",
        target: "playbook",
        verdict: "approve",
      }),
    );
  for (const phase of summary.phases) {
    records.push(
      recordFor(summary, { kind: "critic", target: phase.id, verdict: "PASS" }),
    );
    for (const subtask of phase.subtasks) {
      records.push(
        recordFor(summary, {
          kind: "confirmation",
          target: subtask.id,
          verdict: "PASS",
        }),
      );
      for (const validation of [
        "technical",
        "consistency",
        "completeness",
      ] as const)
        records.push(
          recordFor(summary, {
            kind: "evidence",
            target: subtask.id,
            validation,
            verdict: "PASS",
          }),
        );
    }
  }
  const set = createRecordSet(records);
  return {
    claims: findUnbackedClaims(BOOK, parsed, summary, set).map((d) => d.code),
    missing: findMissingProof(BOOK, summary, set),
  };
}

// p1.1's first validation rewritten to `true` after the reviewer approved the plan.
const REWRITTEN = FINISHED_PLAYBOOK.replace(
  '"automated - npx vitest run test/login-form.test.ts"',
  '"automated - true"',
);

describe("check and the archive count proof only in the approved plan", () => {
  it("a finished plan the reviewer approved as it is: nothing is missing", () => {
    const { claims, missing } = world(FINISHED_PLAYBOOK, FINISHED_PLAYBOOK);
    expect(claims).toEqual([]);
    expect(missing).toEqual([]);
  });

  it("validations rewritten after the approval: reviewed: true is unbacked, and the archive does not start", () => {
    const { claims, missing } = world(REWRITTEN, FINISHED_PLAYBOOK);
    expect(claims).toEqual(["reviewed-unbacked"]);
    expect(missing[0]).toMatch(
      /^no proof counts while the plan changed after the reviewer approved it/,
    );
  });

  it("with reviewed: false, the first claim says the plan is not approved; with no review at all the archive does not start", () => {
    const unreviewed = REWRITTEN.replace("reviewed: true", "reviewed: false");
    expect(world(unreviewed, FINISHED_PLAYBOOK).claims).toEqual([
      "proof-unapproved",
    ]);
    const { claims, missing } = world(FINISHED_PLAYBOOK, null);
    expect(claims).toEqual(["reviewed-unbacked"]);
    expect(missing.join("\n")).toContain(
      "no proof counts while the reviewer has not approved the plan",
    );
  });
});
