import { describe, expect, it } from "vitest";
import {
  PULL_REQUEST_BODY_LIMIT,
  renderPullRequest,
} from "../../../../src/core/archive/pull-request-text.ts";
import {
  renderJobSummary,
  utf8Length,
} from "../../../../src/core/records/job-summary.ts";
import {
  toProofModel,
  type ProofRerunResult,
} from "../../../../src/core/records/proof-model.ts";
import { createRecordSet } from "../../../../src/core/records/record-set.ts";
import type { PlaybookRecord } from "../../../../src/core/records/record.ts";
import type { PlaybookSummary } from "../../../../src/core/model/summary.ts";
import {
  BOOK,
  playbookOf,
  recordFor,
  REVIEWED,
} from "../../../helpers/guard-context.ts";
import { renderLargePlaybook } from "../../../helpers/large-playbook.ts";

const ARCHIVED = "plan/archive/playbook-login-form.md";
const DIGEST = `sha256:${"d".repeat(64)}`;
const TREE = `sha256:${"e".repeat(64)}`;

function proofOf(playbook: PlaybookSummary, approvedOf = playbook) {
  const records: PlaybookRecord[] = [
    {
      ...recordFor(approvedOf, {
        kind: "review",
        target: "playbook",
        verdict: "approve",
      }),
      by: "reviewer",
    },
    {
      ...recordFor(playbook, { kind: "critic", target: "p1", verdict: "PASS" }),
      by: "critic",
      detail: { evidence: "all tests green" },
    },
  ];
  for (const phase of playbook.phases)
    for (const subtask of phase.subtasks)
      for (const [name, v] of Object.entries(subtask.validations))
        if (v.kind !== "manual")
          records.push({
            ...recordFor(playbook, {
              kind: "evidence",
              target: subtask.id,
              validation: name as "technical",
              verdict: "PASS",
            }),
            by: "playbook-verify",
            at: "2026-11-27T10:00:00.000Z",
            detail: {
              command: "x",
              exitCode: 0,
              outputDigest: DIGEST,
              tree: TREE,
            },
          });
  return createRecordSet(records);
}

/** Each table line's cells, split as GitHub splits them: at every `|` not right after a backslash. */
function tableLines(body: string): string[][] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .replace(/^\|/, "")
        .replace(/(?<!\\)\|$/, "")
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

describe("the pull request's body", () => {
  const playbook = playbookOf(REVIEWED);

  it("shows each validation's command, result, output digest, tree and time, under the critic's verdict", () => {
    const { title, body } = renderPullRequest(
      BOOK,
      ARCHIVED,
      playbook,
      proofOf(playbook),
    );
    expect(title).toBe("Users can log in with email and password");
    expect(body).toContain(
      "**Goal**: Users can log in with email and password\n\n**Done when**:\n- npm test passes including test/login.test.ts",
    );
    expect(body).toContain("### p1: Form component (in_progress)");
    expect(body).toContain(
      "Critic: ✅ PASS by `critic` at 2026-11-22 00:00 UTC: all tests green",
    );
    expect(tableLines(body)).toContainEqual([
      "☑ **p1.2**",
      '\\`LoginForm\\` shows "Email is required" when the email is empty',
      "technical (automated)",
      "`npx vitest run test/login-form.test.ts -t required`",
      "✅ PASS, exit 0 by `playbook-verify`",
      "`dddddddddddd`",
      "`eeeeeeeeeeee`",
      "2026-11-27 10:00 UTC",
    ]);
    // p1.1's manual check has no confirmation: shown, and shown as unproven.
    expect(tableLines(body)).toContainEqual([
      "",
      "",
      "completeness (manual)",
      "the error states match docs/design.png",
      "❌ no record",
      "",
      "",
      "",
    ]);
    expect(body).toContain(
      '- ☐ **ft1**: CHANGELOG.md has a "Login form" entry',
    );
    expect(body).not.toContain("re-run");
  });

  it("says the reviewer approved the plan as it is now, with its hash", () => {
    const { body } = renderPullRequest(
      BOOK,
      ARCHIVED,
      playbook,
      proofOf(playbook),
    );
    expect(body).toMatch(
      /✅ The reviewer \(`reviewer`\) approved plan `[0-9a-f]{12}` at 2026-11-22 00:00 UTC: the plan as it is now\./,
    );
  });

  it("says when the approval is of an earlier plan, with both hashes", () => {
    const earlier = playbookOf(
      REVIEWED.replace("Users can log in", "People can log in"),
    );
    const { body } = renderPullRequest(
      BOOK,
      ARCHIVED,
      playbook,
      proofOf(playbook, earlier),
    );
    const [, approved, now] =
      /⚠️ The reviewer \(`reviewer`\) approved plan `([0-9a-f]{12})` at 2026-11-22 00:00 UTC; the plan changed since \(now `([0-9a-f]{12})`\): no proof below counts for it\./.exec(
        body,
      ) ?? [];
    expect(approved).toBeDefined();
    expect(approved).not.toBe(now);
  });

  it("keeps plan text from adding cells, rows, HTML or mentions", () => {
    const hostile = playbookOf(
      REVIEWED.replace(
        "`src/login-form.tsx` exports `LoginForm`",
        "ok | forged ✅ | <!-- hides the rest --> <details> @octocat",
      ).replace(
        '"automated - npx vitest run test/login-form.test.ts"',
        '"automated - `echo a | tee b`"',
      ),
    );
    const { body } = renderPullRequest(
      BOOK,
      ARCHIVED,
      hostile,
      proofOf(hostile),
    );
    const lines = tableLines(body);
    expect(new Set(lines.map((cells) => cells.length))).toEqual(new Set([8]));
    expect(body).not.toContain("<");
    expect(body).not.toContain("@octocat");
    expect(lines).toContainEqual(
      expect.arrayContaining([
        "☐ **p1.1**",
        "ok \\| forged ✅ \\| &lt;\\!-- hides the rest --&gt; &lt;details&gt; @\u200boctocat",
        "`echo a \\| tee b`",
      ]),
    );
  });

  it("lists the files the archive committed and left alone", () => {
    const { body } = renderPullRequest(
      BOOK,
      ARCHIVED,
      playbook,
      proofOf(playbook),
      { committed: ["src/login-form.tsx", "state.md"], leftAlone: [".env"] },
    );
    expect(body).toContain(
      "Committed (2): `src/login-form.tsx`, `state.md`.\n\nLeft alone (not committed) (1): `.env`.",
    );
  });

  it("is cut under GitHub's 65,536 characters after the last whole subtask, with a note", () => {
    const large = playbookOf(renderLargePlaybook(20, 40));
    const { body } = renderPullRequest(BOOK, ARCHIVED, large, proofOf(large));
    expect(body.length).toBeLessThanOrEqual(PULL_REQUEST_BODY_LIMIT);
    const [, hidden] =
      /\*\*Cut here\*\*: GitHub takes at most 65,536 characters in a pull request body, so (\d+) more subtasks and what follows them are not shown\./.exec(
        body,
      ) ?? [];
    const shown = new Set(
      tableLines(body)
        .map((cells) => /\*\*(p\d+\.\d+)\*\*/.exec(cells[0] ?? "")?.[1])
        .filter((id) => id !== undefined),
    );
    expect(shown.size + Number(hidden)).toBe(800);
    // The last subtask shown has all three of its lines.
    const last = [...shown].at(-1) ?? "";
    const rows = body.split("\n");
    const at = rows.findIndex((line) => line.includes(`**${last}**`));
    expect(rows.slice(at, at + 3).every((l) => l.startsWith("|"))).toBe(true);
    expect(rows[at + 3]).toBe("");
  });
});

describe("the job summary of check --rerun", () => {
  const playbook = playbookOf(
    REVIEWED.replace("- [ ] **p2.1**", "- [x] **p2.1**"),
  );
  const rerun: ProofRerunResult[] = [
    { subtask: "p1.2", validation: "technical", rerun: "PASS", problem: null },
    {
      subtask: "p1.2",
      validation: "consistency",
      rerun: "PASS",
      problem: null,
    },
    {
      subtask: "p1.2",
      validation: "completeness",
      rerun: "FAIL",
      problem: "the evidence says PASS, the rerun FAILs",
    },
    { subtask: "p2.1", validation: "technical", rerun: "PASS", problem: null },
    {
      subtask: "p2.1",
      validation: "consistency",
      rerun: "PASS",
      problem: null,
    },
  ];
  const model = (results = rerun) =>
    toProofModel({
      path: BOOK,
      playbook,
      records: proofOf(playbook),
      rerun: results,
    });

  it("marks each validation re-proved, failed or not re-run, in the same table as the pull request", () => {
    const summary = renderJobSummary({
      proof: [model()],
      sandbox: { sandboxed: true },
      forAPerson: [],
      ok: false,
    });
    expect(summary).toContain(
      "❌ **1 of 5 validations disagree with their evidence.**",
    );
    expect(summary).toContain(`## \`${BOOK}\``);
    const byValidation = new Map(
      tableLines(summary).map((cells, i, all) => {
        let row = i;
        while (row > 0 && all[row]?.[0] === "") row--;
        return [`${all[row]?.[0]} ${cells[2]}`, cells[8]];
      }),
    );
    expect(byValidation.get("☑ **p1.2** technical (automated)")).toBe(
      "✅ re-proved",
    );
    expect(byValidation.get("☑ **p1.2** completeness (hybrid)")).toBe(
      "❌ FAIL: the evidence says PASS, the rerun FAILs",
    );
    expect(byValidation.get("☐ **p1.1** technical (automated)")).toBe(
      "not re-run (not checked)",
    );
    expect(byValidation.get("☑ **p2.1** completeness (manual)")).toBe(
      "— (a person's check)",
    );
  });

  it("says when every validation was re-proved, when nothing ran in a sandbox, and what a person must review", () => {
    const summary = renderJobSummary({
      proof: [model(rerun.filter((r) => r.problem === null))],
      sandbox: { sandboxed: false, why: "bubblewrap is not installed" },
      forAPerson: [".github/workflows/playbook.yml"],
      ok: false,
    });
    expect(summary).toContain(
      "✅ **4 of 4 validations re-proved**: each ran again and agrees with its evidence.",
    );
    expect(summary).toContain(
      "⚠️ **Not sandboxed**: bubblewrap is not installed.",
    );
    expect(summary).toContain(
      "❌ This pull request changes what CI cannot judge: `.github/workflows/playbook.yml`.",
    );
  });

  it("stays within the room it is given, counted in UTF-8 bytes, with a note", () => {
    const large = playbookOf(
      renderLargePlaybook(5, 40).replaceAll("StorageV2", "ストレージ"),
    );
    const summary = renderJobSummary(
      {
        proof: [
          toProofModel({
            path: BOOK,
            playbook: large,
            records: proofOf(large),
            rerun: [],
          }),
        ],
        sandbox: { sandboxed: true },
        forAPerson: [],
        ok: true,
      },
      20_000,
    );
    expect(utf8Length(summary)).toBeLessThanOrEqual(20_000);
    expect(Buffer.byteLength(summary, "utf8")).toBe(utf8Length(summary));
    expect(summary).toMatch(
      /\*\*Cut here\*\*: GitHub Actions keeps at most 1 MiB of a step's summary, so \d+ more subtasks/,
    );
  });
});
