import { describe, expect, it } from "vitest";
import {
  archiveBranch,
  assertFinished,
  assertLintClean,
  assertMergeable,
} from "../../../../src/core/archive/readiness.ts";
import { summarizePlaybook } from "../../../../src/core/cache/summary.ts";
import { PlaybookError } from "../../../../src/core/errors.ts";
import { diagnosticAt } from "../../../../src/core/model/diagnostic.ts";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import { SAMPLE_PLAYBOOK } from "../../../helpers/sample-docs.ts";

const PATH = "plan/playbook-login-form.md";

function summaryOf(text: string) {
  const parsed = parsePlaybook(text, PATH);
  return summarizePlaybook(parsed.value, parsed.diagnostics);
}

/** The refusal `run` throws: its code, message, next step and where, if anywhere. */
function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PlaybookError);
    const e = error as PlaybookError;
    return {
      code: e.code,
      message: e.message,
      hint: e.hint,
      location: e.location,
    };
  }
  return null;
}

describe("what the archive checks before it plans a step", () => {
  it("takes a playbook that lints clean, and refuses one with lint errors at the first error's line", () => {
    expect(
      refusal(() => assertLintClean(PATH, summaryOf(SAMPLE_PLAYBOOK))),
    ).toBeNull();
    const clean = summaryOf(SAMPLE_PLAYBOOK);
    const broken = {
      ...clean,
      diagnostics: [
        diagnosticAt(PATH, { line: 3, column: 1 }, "w", "warning", "a warning"),
        diagnosticAt(
          PATH,
          { line: 7, column: 1 },
          "e",
          "error",
          "Unexpected x, expected y.",
        ),
      ],
    };
    const r = refusal(() => assertLintClean(PATH, broken));
    expect(r?.code).toBe("E_CONFIG");
    expect(r?.message).toBe(
      `${PATH} has lint errors, first: Unexpected x, expected y.`,
    );
    expect(r?.location).toEqual({ file: PATH, line: 7, column: 1 });
    expect(r?.hint).toContain("playbook lint");
  });

  it.each([
    [[], null],
    [["p1.1 has no evidence"], "is not finished: p1.1 has no evidence."],
    [
      ["a", "b", "c", "d", "e", "f", "g"],
      "is not finished: a; b; c; d; e (and 2 more).",
    ],
  ])("missing proof %j", (missing, says) => {
    const r = refusal(() => assertFinished(PATH, missing));
    if (says === null) expect(r).toBeNull();
    else {
      expect(r?.message).toBe(`${PATH} ${says}`);
      expect(r?.hint).toContain("playbook status");
    }
  });

  it.each([
    ["feat/x", null, "feat/x"],
    [null, "feat/y", "feat/y"],
    ["feat/x", "feat/y", "feat/x"],
  ])(
    "the branch: the playbook's %s, else state.md's %s",
    (own, state, branch) => {
      expect(archiveBranch(PATH, own, state)).toBe(branch);
    },
  );

  it("refuses a playbook that names no branch, and one whose branch is the default branch", () => {
    expect(refusal(() => archiveBranch(PATH, null, undefined))?.hint).toContain(
      "branch:",
    );
    expect(refusal(() => assertMergeable(PATH, "feat/x", "main"))).toBeNull();
    const r = refusal(() => assertMergeable(PATH, "main", "main"));
    expect(r?.message).toContain("there is nothing to merge");
    expect(r?.hint).toBe(
      "Set `branch:` in its `## meta` to the task's own branch (`playbook new` makes one), and work there.",
    );
  });
});
