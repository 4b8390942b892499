import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stateResetEdits } from "../../../../src/core/archive/journal.ts";
import { resetStateText } from "../../../../src/core/archive/state-reset.ts";
import { setStateField } from "../../../../src/core/edit/state-writers.ts";
import type { EditResult } from "../../../../src/core/edit/text-edit.ts";
import { fixturePath } from "../../../helpers/read-fixture.ts";
import { stateDoc } from "../../../helpers/sample-docs.ts";

const ARCHIVED = "plan/archive/playbook-login-form.md";

/** The reset as the archive wrote it before: one `setStateField` (one parse) per field. */
function fieldByField(text: string): EditResult {
  let current = text;
  for (const edit of stateResetEdits(ARCHIVED)) {
    const result = setStateField(current, edit.section, edit.key, edit.value);
    if (!result.ok) return result;
    current = result.text;
  }
  return { ok: true, text: current, changed: current !== text };
}

const active = stateDoc({
  active: "plan/playbook-login-form.md",
  branch: "feat/login-form",
  phase: "p2",
});

const documents: [string, string][] = [
  ["an active playbook", active],
  ["CRLF line endings", active.replaceAll("\n", "\r\n")],
  [
    "done_criteria as a block list, comments and quoted values",
    active
      .replace(
        "done_criteria: []",
        "done_criteria:\n  - the form logs in\n  - errors are shown # both",
      )
      .replace("status: in_progress", 'status: "in_progress" # now'),
  ],
  [
    "a key missing (added at its block's end)",
    active.replace("milestone: null\n", ""),
  ],
  [
    "a section missing (added at the end)",
    active.replace(/## goal[\s\S]*?```\n```\n/, ""),
  ],
  [
    "the template",
    readFileSync(
      join(import.meta.dirname, "../../../../plan/template/state-initial.md"),
      "utf8",
    ),
  ],
  ...readdirSync(fixturePath("state"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name): [string, string] => [
      `fixture ${name}`,
      readFileSync(join(fixturePath("state"), name), "utf8"),
    ]),
];

describe("resetStateText", () => {
  it("says whether the reset is already done: no playbook active, last_archived this archive's", () => {
    expect(resetStateText(active, ARCHIVED).alreadyReset).toBe(false);
    const reset = resetStateText(active, ARCHIVED).result;
    if (!reset.ok) throw new Error(reset.reason);
    expect(resetStateText(reset.text, ARCHIVED).alreadyReset).toBe(true);
    expect(
      resetStateText(reset.text, "plan/archive/other.md").alreadyReset,
    ).toBe(false);
  });

  it.each(documents)(
    "writes what setStateField writes field by field: %s",
    (_name, text) => {
      expect(resetStateText(text, ARCHIVED).result).toEqual(fieldByField(text));
    },
  );
});
