import { describe, expect, it } from "vitest";
import { setStateField } from "../../../../src/core/edit/state-writers.ts";
import type { EditResult } from "../../../../src/core/edit/text-edit.ts";
import { parseState } from "../../../../src/core/parse/parse-state.ts";
import { SAMPLE_STATE } from "../../../helpers/sample-docs.ts";

function applied(result: EditResult): string {
  if (!result.ok) throw new Error(`edit refused: ${result.reason}`);
  return result.text;
}

function reparse(text: string) {
  const parsed = parseState(text, "state.md");
  expect(parsed.diagnostics).toEqual([]);
  return parsed.value;
}

describe("setStateField", () => {
  it.each([
    [
      "playbook",
      "active",
      null,
      "active: plan/playbook-login-form.md",
      "active: null",
    ],
    [
      "playbook",
      "branch",
      "feat/signup",
      "branch: feat/login-form",
      "branch: feat/signup",
    ],
    [
      "goal",
      "phase",
      "p2",
      "phase: p1        # current phase",
      "phase: p2        # current phase",
    ],
    ["goal", "status", "done", "status: in_progress", "status: done"],
    [
      "session",
      "last_start",
      "2026-11-22T09:00:00Z",
      "last_start: 2026-11-21T10:00:00Z",
      "last_start: 2026-11-22T09:00:00Z",
    ],
    [
      "session",
      "last_end",
      "2026-11-22T09:30:00Z",
      "last_end:\n",
      "last_end: 2026-11-22T09:30:00Z\n",
    ],
    [
      "playbook",
      "branch",
      "feat/x: with colon",
      "branch: feat/login-form",
      'branch: "feat/x: with colon"',
    ],
    ["playbook", "branch", "null", "branch: feat/login-form", 'branch: "null"'],
    [
      "playbook",
      "branch",
      "a #hash",
      "branch: feat/login-form",
      'branch: "a #hash"',
    ],
  ] as const)(
    "sets %s.%s = %j replacing only its value",
    (section, key, value, from, to) => {
      const after = applied(setStateField(SAMPLE_STATE, section, key, value));
      expect(after).toBe(SAMPLE_STATE.replace(from, to));
    },
  );

  it("reads every written value back exactly", () => {
    let text = SAMPLE_STATE;
    text = applied(setStateField(text, "playbook", "active", null));
    text = applied(
      setStateField(
        text,
        "playbook",
        "last_archived",
        "plan/archive/playbook-login-form.md",
      ),
    );
    text = applied(setStateField(text, "goal", "phase", "p_final"));
    const state = reparse(text);
    expect(state.playbook).toEqual({
      active: null,
      branch: "feat/login-form",
      lastArchived: "plan/archive/playbook-login-form.md",
    });
    expect(state.goal.phase).toBe("p_final");
  });

  it("adds a missing key at the end of its block", () => {
    const text = SAMPLE_STATE.replace("last_archived: null\n", "");
    const after = applied(
      setStateField(text, "playbook", "last_archived", "plan/archive/x.md"),
    );
    expect(after).toBe(
      text.replace(
        "branch: feat/login-form\n",
        "branch: feat/login-form\nlast_archived: plan/archive/x.md\n",
      ),
    );
  });

  it("keeps a comment after an empty value", () => {
    const text = SAMPLE_STATE.replace(
      "last_end:\n",
      "last_end: # set at SessionEnd\n",
    );
    const after = applied(
      setStateField(text, "session", "last_end", "2026-11-22T10:00:00Z"),
    );
    expect(after).toBe(
      text.replace("last_end: # set", "last_end: 2026-11-22T10:00:00Z # set"),
    );
    expect(reparse(after).session.lastEnd).toBe("2026-11-22T10:00:00Z");
  });

  it("appends a missing section with its block, leaving the rest untouched", () => {
    const text = SAMPLE_STATE.replace(
      /## session\n\n```yaml\n[\s\S]*?```\n\n/,
      "",
    );
    const after = applied(
      setStateField(text, "session", "last_start", "2026-11-22T09:00:00Z"),
    );
    expect(after.startsWith(text)).toBe(true);
    expect(after.slice(text.length)).toBe(
      "\n## session\n\n```yaml\nlast_start: 2026-11-22T09:00:00Z\n```\n",
    );
    expect(reparse(after).session.lastStart).toBe("2026-11-22T09:00:00Z");
  });

  it("keeps CRLF and a BOM", () => {
    const text = `\uFEFF${SAMPLE_STATE.replace(/\n/g, "\r\n")}`;
    const after = applied(setStateField(text, "playbook", "active", null));
    expect(after).toBe(
      text.replace("active: plan/playbook-login-form.md", "active: null"),
    );
    const added = applied(setStateField(after, "goal", "milestone", "m1"));
    expect(added).toBe(after.replace("milestone: null", "milestone: m1"));
  });

  it("refuses to write into a broken block and changes nothing", () => {
    const text = SAMPLE_STATE.replace(
      "status: in_progress",
      "status: [in_progress",
    );
    const result = setStateField(text, "goal", "phase", "p2");
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.reason).toMatch(
        /`## goal` yaml block of state.md is broken/,
      );
  });
});

describe("setStateField on unusual blocks", () => {
  it("refuses to add a key to a one-line {...} mapping", () => {
    const text = SAMPLE_STATE.replace(
      /last_start: [^\n]*\nlast_end:\n/,
      "{last_start: null}\n",
    );
    const result = setStateField(
      text,
      "session",
      "last_end",
      "2026-11-22T10:00:00Z",
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/one key per line/);
  });

  it("still replaces a value inside a one-line mapping it already has", () => {
    const text = SAMPLE_STATE.replace(
      /last_start: [^\n]*\nlast_end:\n/,
      "{last_start: null, last_end: null}\n",
    );
    const after = applied(
      setStateField(text, "session", "last_end", "2026-11-22T10:00:00Z"),
    );
    expect(parseState(after, "state.md").value.session.lastEnd).toBe(
      "2026-11-22T10:00:00Z",
    );
  });
});

describe("setStateField with a list", () => {
  const goal = (criteria: string) =>
    `# state\n\n## goal\n\n\`\`\`yaml\nmilestone: null\ndone_criteria:${criteria}\nstatus: in_progress   # now\n\`\`\`\n`;

  it.each([
    ["a block list with a comment", "\n  - tests pass\n  - docs   # later", []],
    ["a flow list", " [a, b]", []],
    ["an empty list", " []", []],
    ["no value", "", ["x"]],
    ["a block list replaced by items", "\n  - a", ["needs: quoting", "plain"]],
  ] as const)(
    "%s becomes a flow list; the rest stays",
    (_name, criteria, value) => {
      const text = goal(criteria);
      const result = setStateField(text, "goal", "done_criteria", value);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const parsed = parseState(result.text, "state.md");
      expect(
        parsed.diagnostics.filter((d) => d.code.startsWith("yaml")),
      ).toEqual([]);
      expect(parsed.value.goal.doneCriteria).toEqual(value);
      expect(parsed.value.goal.status).toBe("in_progress");
      // Only the list's own bytes changed.
      const [before, after] = text.split("done_criteria:");
      expect(result.text.startsWith(`${before}done_criteria: [`)).toBe(true);
      expect(
        result.text.endsWith(after!.slice(after!.indexOf("\nstatus:"))),
      ).toBe(true);
    },
  );

  it("adds a missing list key", () => {
    const text = "# state\n\n## goal\n\n```yaml\nphase: p1\n```\n";
    const result = setStateField(text, "goal", "done_criteria", []);
    expect(result.ok && result.text).toBe(
      "# state\n\n## goal\n\n```yaml\nphase: p1\ndone_criteria: []\n```\n",
    );
  });
});
