import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePlaybook } from "../../../src/core/parse/parse-playbook.ts";
import { parseState } from "../../../src/core/parse/parse-state.ts";
import { validatePlaybook } from "../../../src/core/validate/validate-playbook.ts";
import { emittedCodes } from "../../helpers/emitted-codes.ts";

const root = join(import.meta.dirname, "..", "..", "..");
const template = (name: string) =>
  readFileSync(join(root, "plan", "template", name), "utf8");

/** Every `~~~markdown` block of a document, with the line it starts on. */
function examples(text: string): { line: number; body: string }[] {
  return [...text.matchAll(/^~~~markdown\r?\n([\s\S]*?)^~~~\s*$/gm)].map(
    (match) => ({
      line: text.slice(0, match.index).split("\n").length,
      body: match[1]!,
    }),
  );
}

describe("plan/template documents", () => {
  it("find the diagnostic codes in the source (the pattern below still matches how codes are written)", () => {
    expect(emittedCodes().length).toBeGreaterThanOrEqual(40);
    expect(emittedCodes()).toContain("setext-heading");
  });

  it.each(emittedCodes())(
    "playbook-format.md documents the code %s",
    (code) => {
      expect(template("playbook-format.md")).toMatch(
        new RegExp(`\\| \`${code}\` \\| (error|warning) \\|`),
      );
    },
  );

  it.each([
    ["playbook-format.md", 1],
    ["playbook-examples.md", 2],
  ])(
    "every example playbook in %s lints without a diagnostic",
    (name, count) => {
      const blocks = examples(template(name));
      expect(blocks).toHaveLength(count);
      for (const { line, body } of blocks) {
        const parsed = parsePlaybook(body, `${name}:${line}`);
        expect([
          ...parsed.diagnostics,
          ...validatePlaybook(parsed.value, `${name}:${line}`),
        ]).toEqual([]);
        expect(parsed.value.phases.length).toBeGreaterThan(0);
      }
    },
  );

  it("state-initial.md parses without a diagnostic and starts idle with no active playbook", () => {
    const parsed = parseState(template("state-initial.md"), "state-initial.md");
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.value.playbook).toEqual({
      active: null,
      branch: null,
      lastArchived: null,
    });
    expect(parsed.value.goal.status).toBe("idle");
    expect(parsed.value.config.security).toBe("strict");
  });

  it("planning-rules.md lists every default banned phrase", async () => {
    const { DEFAULT_BANNED_PHRASES } =
      await import("../../../src/core/validate/banned-phrases.ts");
    const rules = template("planning-rules.md");
    expect(
      DEFAULT_BANNED_PHRASES.filter((phrase) => !rules.includes(phrase)),
    ).toEqual([]);
  });
});
