import { describe, expect, it } from "vitest";
import { reviewHash } from "../../../../src/core/records/content-hash.ts";
import { toProofModel } from "../../../../src/core/records/proof-model.ts";
import { createRecordSet } from "../../../../src/core/records/record-set.ts";
import type { PlaybookRecord } from "../../../../src/core/records/record.ts";
import {
  BOOK,
  playbookOf,
  recordFor,
  REVIEWED,
} from "../../../helpers/guard-context.ts";

const playbook = playbookOf(REVIEWED);
// The plan before p1.1's first validation was rewritten: an approval of it is stale for REVIEWED.
const EARLIER = playbookOf(
  REVIEWED.replace(
    '"automated - npx vitest run test/login-form.test.ts"',
    '"automated - true"',
  ),
);

const DIGEST = `sha256:${"d".repeat(64)}`;
const TREE = `sha256:${"e".repeat(64)}`;

function evidence(
  target: string,
  validation: "technical" | "consistency" | "completeness",
  verdict: "PASS" | "FAIL" = "PASS",
  detail: Record<string, unknown> = {},
): PlaybookRecord {
  return {
    ...recordFor(playbook, { kind: "evidence", target, validation, verdict }),
    by: "playbook-verify",
    at: "2026-11-27T10:00:00.000Z",
    detail: {
      command: "npm test",
      exitCode: verdict === "PASS" ? 0 : 1,
      outputDigest: DIGEST,
      tree: TREE,
      sandboxed: true,
      ...detail,
    },
  };
}

const approval = (of = playbook): PlaybookRecord => ({
  ...recordFor(of, { kind: "review", target: "playbook", verdict: "approve" }),
  by: "reviewer",
});

describe("toProofModel", () => {
  it("gives each subtask's validations with the command, the evidence's digest, tree and time, and the user's confirmation", () => {
    const model = toProofModel({
      path: BOOK,
      playbook,
      records: createRecordSet([
        approval(),
        evidence("p1.2", "technical"),
        evidence("p1.2", "consistency"),
        evidence("p1.2", "completeness"),
        recordFor(playbook, {
          kind: "confirmation",
          target: "p1.2",
          verdict: "PASS",
          by: "user",
        }),
      ]),
    });

    const [p1] = model.phases;
    expect(p1?.subtasks.map((s) => [s.id, s.checked])).toEqual([
      ["p1.1", false],
      ["p1.2", true],
    ]);
    const p12 = p1?.subtasks[1];
    expect(p12?.criterion).toBe(
      '`LoginForm` shows "Email is required" when the email is empty',
    );
    expect(p12?.validations[0]).toEqual({
      name: "technical",
      kind: "automated",
      command: "npx vitest run test/login-form.test.ts -t required",
      status: "proven",
      evidence: {
        verdict: "PASS",
        by: "playbook-verify",
        at: "2026-11-27T10:00:00.000Z",
        exitCode: 0,
        outputDigest: DIGEST,
        tree: TREE,
        commit: null,
        sandboxed: true,
      },
      rerun: null,
    });
    // The hybrid's command is the part before " + ", and it needs the confirmation too.
    expect(p12?.validations[2]).toMatchObject({
      kind: "hybrid",
      command: "npx playwright test login",
      status: "proven",
    });
    expect(p12?.confirmation).toEqual({
      by: "user",
      at: "2026-11-22T00:00:00Z",
      current: true,
    });
    expect(p12?.rerun).toBeNull();

    // p1.1: no evidence, and its manual validation shows the check a person makes.
    const p11 = p1?.subtasks[0];
    expect(p11?.validations.map((v) => [v.name, v.status, v.evidence])).toEqual(
      [
        ["technical", "none", null],
        ["consistency", "none", null],
        ["completeness", "none", null],
      ],
    );
    expect(p11?.validations[2]?.command).toBe(
      "the error states match docs/design.png",
    );
    expect(model.finalTasks).toEqual([
      {
        id: "ft1",
        checked: false,
        text: 'CHANGELOG.md has a "Login form" entry',
      },
    ]);
    expect(model.rerun).toBe(false);
    expect(model.files).toBeNull();
  });

  it.each([
    ["the plan as it is now", approval(), "approved", true],
    ["an earlier plan", approval(EARLIER), "stale", false],
  ])(
    "an approval of %s says which plan hash it approved",
    (_, review, state, current) => {
      const model = toProofModel({
        path: BOOK,
        playbook,
        records: createRecordSet([review]),
      });
      expect(model.review).toMatchObject({
        state,
        verdict: "approve",
        by: "reviewer",
        currentPlanHash: reviewHash(playbook),
      });
      expect(model.review.planHash === model.review.currentPlanHash).toBe(
        current,
      );
    },
  );

  it("without a review, no plan hash is approved", () => {
    const model = toProofModel({
      path: BOOK,
      playbook,
      records: createRecordSet([]),
    });
    expect(model.review).toMatchObject({
      state: "none",
      verdict: null,
      planHash: null,
    });
  });

  it("judges evidence as the guards do: failed, of an earlier subtask, of other code", () => {
    const stale = {
      ...evidence("p1.2", "consistency"),
      contentHash: "sha256:earlier",
    };
    const model = toProofModel({
      path: BOOK,
      playbook,
      records: createRecordSet([
        evidence("p1.2", "technical", "FAIL"),
        stale,
        evidence("p1.2", "completeness", "PASS", { tree: "sha256:other" }),
      ]),
      tree: TREE,
    });
    expect(
      model.phases[0]?.subtasks[1]?.validations.map((v) => v.status),
    ).toEqual(["failed", "stale", "code"]);
  });

  it("gives the critic's verdict per phase, current or of an earlier version", () => {
    const model = toProofModel({
      path: BOOK,
      playbook,
      records: createRecordSet([
        {
          ...recordFor(playbook, {
            kind: "critic",
            target: "p1",
            verdict: "PASS",
          }),
          by: "critic",
          detail: { evidence: "all tests green" },
        },
        {
          ...recordFor(playbook, {
            kind: "critic",
            target: "p2",
            verdict: "PASS",
          }),
          contentHash: "sha256:earlier",
        },
      ]),
    });
    expect(model.phases.map((p) => p.critic)).toEqual([
      {
        state: "PASS",
        by: "critic",
        at: "2026-11-22T00:00:00Z",
        evidence: "all tests green",
      },
      {
        state: "stale",
        by: "test",
        at: "2026-11-22T00:00:00Z",
        evidence: null,
      },
    ]);
  });

  it("marks each subtask re-proved, failed or not re-run, and each validation with what its re-run found", () => {
    const model = toProofModel({
      path: BOOK,
      playbook,
      records: createRecordSet([]),
      rerun: [
        {
          subtask: "p1.2",
          validation: "technical",
          rerun: "PASS",
          problem: null,
        },
        {
          subtask: "p1.2",
          validation: "consistency",
          rerun: "FAIL",
          problem: "the evidence says PASS, the rerun FAILs",
        },
        {
          subtask: "p2.1",
          validation: "technical",
          rerun: "PASS",
          problem: null,
        },
      ],
    });
    const rows = model.phases.flatMap((p) => p.subtasks);
    expect(rows.map((r) => [r.id, r.rerun])).toEqual([
      ["p1.1", "not re-run"],
      ["p1.2", "failed"],
      ["p2.1", "re-proved"],
    ]);
    expect(rows[1]?.validations.map((v) => v.rerun)).toEqual([
      { verdict: "PASS", problem: null },
      { verdict: "FAIL", problem: "the evidence says PASS, the rerun FAILs" },
      null,
    ]);
    expect(model.rerun).toBe(true);
  });

  it("keeps the archive's file lists, and names the playbook where it is now", () => {
    const files = { committed: ["src/a.ts"], leftAlone: [".env"] };
    const model = toProofModel({
      path: BOOK,
      file: "plan/archive/playbook-login-form.md",
      playbook,
      records: createRecordSet([]),
      files,
    });
    expect(model.files).toEqual(files);
    expect(model.playbook).toBe("plan/archive/playbook-login-form.md");
  });
});
