import { describe, expect, it } from "vitest";
import {
  setPhaseStatus,
  setReviewed,
  setTaskChecked,
  setValidated,
  setValidation,
} from "../../../../src/core/edit/playbook-writers.ts";
import type { EditResult } from "../../../../src/core/edit/text-edit.ts";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import { SAMPLE_PLAYBOOK, singleSplice } from "../../../helpers/sample-docs.ts";

function applied(result: EditResult): string {
  if (!result.ok) throw new Error(`edit refused: ${result.reason}`);
  return result.text;
}

/** `after` must be `before` with exactly `inserted` placed right after the first `anchor`. */
function expectInsertedAfter(
  before: string,
  after: string,
  anchor: string,
  inserted: string,
): void {
  const at = before.indexOf(anchor) + anchor.length;
  expect(before.indexOf(anchor)).toBeGreaterThanOrEqual(0);
  expect(after).toBe(before.slice(0, at) + inserted + before.slice(at));
}

function reparse(text: string) {
  const parsed = parsePlaybook(text, "playbook.md");
  expect(parsed.diagnostics).toEqual([]);
  return parsed.value;
}

const subtask = (text: string, id: string) =>
  reparse(text)
    .phases.flatMap((p) => p.subtasks)
    .find((s) => s.id === id);

describe("surgical playbook writers", () => {
  it.each([
    ["checks p1.1", (t: string) => setTaskChecked(t, "p1.1", true), " ", "x"],
    [
      "unchecks [X] p1.2",
      (t: string) => setTaskChecked(t, "p1.2", false),
      "X",
      " ",
    ],
    [
      "checks final task ft1",
      (t: string) => setTaskChecked(t, "ft1", true),
      " ",
      "x",
    ],
    [
      "sets p2 status",
      (t: string) => setPhaseStatus(t, "p2", "in_progress"),
      "pending",
      "in_progress",
    ],
    ["sets reviewed", (t: string) => setReviewed(t, true), "fals", "tru"],
  ])("%s: only those bytes change", (_name, edit, removed, inserted) => {
    const after = applied(edit(SAMPLE_PLAYBOOK));
    expect(singleSplice(SAMPLE_PLAYBOOK, after)).toMatchObject({
      removed,
      inserted,
    });
  });

  it("checking a task changes the AST and nothing else", () => {
    const after = applied(setTaskChecked(SAMPLE_PLAYBOOK, "p1.1", true));
    expect(subtask(after, "p1.1")?.checked).toBe(true);
    expect(subtask(after, "p1.2")?.checked).toBe(true);
    expect(subtask(after, "p2.1")?.checked).toBe(false);
  });

  it("leaves the text untouched when the task already has that state", () => {
    const result = setTaskChecked(SAMPLE_PLAYBOOK, "p1.2", true);
    expect(result).toEqual({ ok: true, text: SAMPLE_PLAYBOOK, changed: false });
  });

  it.each([
    [
      "technical",
      '"automated - npx vitest run test/login-form.test.ts"',
      '"PASS - automated - npx vitest run test/login-form.test.ts"',
    ],
    [
      "consistency",
      "'automated - npx tsc --noEmit'",
      "'PASS - automated - npx tsc --noEmit'",
    ],
    [
      "completeness",
      "manual - the error states match docs/design.png",
      "PASS - manual - the error states match docs/design.png",
    ],
  ] as const)(
    "sets the %s result of p1.1 keeping its quoting",
    (name, before, after) => {
      const text = applied(
        setValidation(SAMPLE_PLAYBOOK, "p1.1", name, { result: "PASS" }),
      );
      expect(singleSplice(SAMPLE_PLAYBOOK, text)).toMatchObject({
        removed: expect.any(String) as string,
        inserted: expect.any(String) as string,
      });
      expect(text).toBe(SAMPLE_PLAYBOOK.replace(before, after));
      expect(subtask(text, "p1.1")?.validations[name]).toMatchObject({
        result: "PASS",
      });
    },
  );

  it("rewrites a validation's kind and text and reads them back", () => {
    const text = applied(
      setValidation(SAMPLE_PLAYBOOK, "p2.1", "completeness", {
        kind: "automated",
        text: 'npm run e2e -- --grep "wrong password"',
      }),
    );
    expect(subtask(text, "p2.1")?.validations.completeness).toMatchObject({
      kind: "automated",
      text: 'npm run e2e -- --grep "wrong password"',
      result: null,
    });
  });

  it("adds a missing **status** line under the phase heading", () => {
    const text = SAMPLE_PLAYBOOK.replace("\n**status**: pending\n", "\n");
    const after = applied(setPhaseStatus(text, "p2", "done"));
    expectInsertedAfter(text, after, "### p2: Submit", "\n**status**: done");
    expect(reparse(after).phases[1]?.status).toBe("done");
  });

  it("sets the phase status that markdown folded into the last list item", () => {
    const after = applied(setPhaseStatus(SAMPLE_PLAYBOOK, "p1", "done"));
    expect(reparse(after).phases[0]?.status).toBe("done");
    expect(singleSplice(SAMPLE_PLAYBOOK, after)).toMatchObject({
      removed: "in_progress",
      inserted: "done",
    });
  });

  it("adds `validated` as the subtask's last child, at its children's indentation", () => {
    const after = applied(
      setValidated(SAMPLE_PLAYBOOK, "p1.2", "2026-11-21T12:00:00Z"),
    );
    expectInsertedAfter(
      SAMPLE_PLAYBOOK,
      after,
      "  - depends_on: [p1.1]",
      "\n  - validated: 2026-11-21T12:00:00Z",
    );
    expect(subtask(after, "p1.2")?.validated).toBe("2026-11-21T12:00:00Z");
    expect(reparse(after).phases[0]?.status).toBe("in_progress");
  });

  it("replaces an existing `validated` value instead of adding a second line", () => {
    const once = applied(
      setValidated(SAMPLE_PLAYBOOK, "p1.1", "2026-11-21T12:00:00Z"),
    );
    const twice = applied(setValidated(once, "p1.1", "2026-11-22T08:30:00Z"));
    expect(twice).toBe(
      once.replace("2026-11-21T12:00:00Z", "2026-11-22T08:30:00Z"),
    );
    expect(twice.match(/validated:/g)).toHaveLength(1);
  });

  it("keeps CRLF line endings and tab indentation when it adds lines", () => {
    const [head = "", phases = ""] = SAMPLE_PLAYBOOK.split("## phases");
    const tabbed = `${head}## phases${phases.replace(/\n {4}- /g, "\n\t\t- ").replace(/\n {2}- /g, "\n\t- ")}`;
    const crlf = tabbed.replace(/\n/g, "\r\n");
    const after = applied(setValidated(crlf, "p2.1", "2026-11-21T12:00:00Z"));
    expectInsertedAfter(
      crlf,
      after,
      "the server's message\"",
      "\r\n\t- validated: 2026-11-21T12:00:00Z",
    );
    expect(after.replace(/\r\n/g, "").includes("\n")).toBe(false);
    expect(subtask(after, "p2.1")?.validated).toBe("2026-11-21T12:00:00Z");
  });

  it("keeps a BOM", () => {
    const after = applied(
      setTaskChecked(`\uFEFF${SAMPLE_PLAYBOOK}`, "p1.1", true),
    );
    expect(after.startsWith("\uFEFF## meta")).toBe(true);
    expect(subtask(after, "p1.1")?.checked).toBe(true);
  });

  it("adds `reviewed` to a meta block that lacks it", () => {
    const text = SAMPLE_PLAYBOOK.replace("reviewed: false\n", "");
    const after = applied(setReviewed(text, true));
    expect(singleSplice(text, after).inserted).toBe("reviewed: true\n");
    expect(reparse(after).meta.reviewed).toBe(true);
  });

  it("writes `reviewed` into frontmatter meta", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      /^## meta\n```yaml\n([\s\S]*?)```\n/,
      "---\n$1---\n",
    );
    expect(reparse(text).meta.project).toBe("login-form");
    const after = applied(setReviewed(text, true));
    expect(reparse(after).meta.reviewed).toBe(true);
    expect(singleSplice(text, after)).toMatchObject({
      removed: "fals",
      inserted: "tru",
    });
  });

  it.each([
    [
      "an unknown subtask",
      () => setTaskChecked(SAMPLE_PLAYBOOK, "p9.9", true),
      /No subtask or final task `p9.9`/,
    ],
    [
      "an unknown phase",
      () => setPhaseStatus(SAMPLE_PLAYBOOK, "p7", "done"),
      /No phase `p7`/,
    ],
    [
      "an unknown validation target",
      () =>
        setValidation(SAMPLE_PLAYBOOK, "p3.1", "technical", { result: "PASS" }),
      /No subtask `p3.1`/,
    ],
    [
      "a missing validation",
      () =>
        setValidation(
          SAMPLE_PLAYBOOK.replace(/ {4}- completeness: manual[^\n]*\n/, ""),
          "p1.1",
          "completeness",
          { result: "PASS" },
        ),
      /has no `completeness` validation/,
    ],
    [
      "broken meta YAML",
      () =>
        setReviewed(
          SAMPLE_PLAYBOOK.replace("issue: null", "issue: [unclosed"),
          true,
        ),
      /`## meta` yaml block is broken/,
    ],
  ])("refuses %s and says why", (_name, edit, reason) => {
    const result = edit();
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe("writers keep the user's comments", () => {
  it.each([
    [
      "a YAML comment after a validation",
      `    - consistency: 'automated - npx tsc --noEmit'`,
      `    - consistency: 'automated - npx tsc --noEmit'  # slow, 4 min`,
      (t: string) =>
        setValidation(t, "p1.1", "consistency", { result: "PASS" }),
      `    - consistency: 'PASS - automated - npx tsc --noEmit'  # slow, 4 min`,
    ],
    [
      "a YAML comment after validated",
      "  - depends_on: [p1.1]",
      '  - depends_on: [p1.1]\n  - validated: "2020-01-01T00:00:00Z" # by verify',
      (t: string) => setValidated(t, "p1.2", "2026-11-22T08:00:00Z"),
      "  - depends_on: [p1.1]\n  - validated: 2026-11-22T08:00:00Z # by verify",
    ],
    [
      "an HTML comment after a status",
      "**status**: pending",
      "**status**: pending <!-- set by the critic -->",
      (t: string) => setPhaseStatus(t, "p2", "in_progress"),
      "**status**: in_progress <!-- set by the critic -->",
    ],
  ])("%s", (_name, from, to, edit, expected) => {
    const text = SAMPLE_PLAYBOOK.replace(from, to);
    expect(parsePlaybook(text, "p.md").diagnostics).toEqual([]);

    const after = applied(edit(text));

    expect(after).toBe(text.replace(to, expected));
  });
});

describe("writers on unusual documents", () => {
  it("adds a key to an indented yaml block at the block's indentation", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      /## meta\n```yaml\n([\s\S]*?)```\n/,
      (_m, body: string) =>
        `## meta\n  \`\`\`yaml\n${body
          .split("\n")
          .filter((l) => l !== "" && !l.startsWith("reviewed"))
          .map((l) => `  ${l}`)
          .join("\n")}\n  \`\`\`\n`,
    );
    expect(parsePlaybook(text, "p.md").value.meta.project).toBe("login-form");

    const after = applied(setReviewed(text, true));

    expect(parsePlaybook(after, "p.md").diagnostics).toEqual([]);
    expect(parsePlaybook(after, "p.md").value.meta.reviewed).toBe(true);
    expect(after).toContain("\n  reviewed: true\n");
  });

  it("refuses to add a key to a one-line {...} mapping and says how to fix it", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      /## meta\n```yaml\n[\s\S]*?```\n/,
      "## meta\n```yaml\n{project: login-form, branch: feat/login-form}\n```\n",
    );
    const result = setReviewed(text, true);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.reason).toMatch(
        /one-line `\{\.\.\.\}` mapping.*one key per line/,
      );
  });

  it("refuses to edit an id that appears twice", () => {
    const text = SAMPLE_PLAYBOOK.replace("- [ ] **p2.1**", "- [ ] **p1.1**");
    const result = setTaskChecked(text, "p1.1", true);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/`p1\.1` appears 2 times/);
    // The refusal points at the second one, the id to rename.
    const second =
      text.split("\n").findLastIndex((l) => l.includes("**p1.1**")) + 1;
    expect(result).toMatchObject({ at: { line: second } });
  });
});
