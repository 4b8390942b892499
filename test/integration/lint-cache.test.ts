import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLint } from "../../src/app/lint/lint.ts";
import { parsePlaybook } from "../../src/core/parse/parse-playbook.ts";
import { validatePlaybook } from "../../src/core/validate/validate-playbook.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";
const ENTRY = ".claude/playbook/cache/lint/plan__playbook-login-form.md.json";
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "playbooks");

function project() {
  return createTempProject({
    "state.md": SAMPLE_STATE,
    [PLAYBOOK]: SAMPLE_PLAYBOOK,
  });
}

const codes = (report: ReturnType<typeof runLint>) =>
  report.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`);

describe("the lint cache", () => {
  // The cache stores a playbook's parse as JSON: whatever JSON cannot carry would come back different.
  it.each(readdirSync(FIXTURES).filter((f) => f.endsWith(".md")))(
    "%s: the parse and diagnostics survive the round trip through JSON unchanged",
    (name) => {
      const text = readFileSync(join(FIXTURES, name), "utf8");
      const parsed = parsePlaybook(text, name);
      const result = {
        playbook: parsed.value,
        diagnostics: [
          ...parsed.diagnostics,
          ...validatePlaybook(parsed.value, name, {}),
        ],
      };
      expect(JSON.parse(JSON.stringify(result))).toStrictEqual(result);
    },
  );

  it("answers an unchanged playbook from the cache with the same report", () => {
    const p = project();
    const first = runLint(p.dir);
    expect(() => p.read(ENTRY)).not.toThrow();
    const second = runLint(p.dir);
    expect(second).toStrictEqual(first);
  });

  it("never answers a changed playbook from the cache", () => {
    const p = project();
    const before = runLint(p.dir);
    p.write(
      PLAYBOOK,
      SAMPLE_PLAYBOOK.replace(/\*\*p1\.1\*\*/, "**p1.9.9.bad**"),
    );
    const after = runLint(p.dir);
    expect(codes(after)).not.toEqual(codes(before));
    expect(after.active?.playbook.phases[0]?.subtasks[0]?.id).toBe(
      "p1.9.9.bad",
    );
  });

  it("lints again when the lint options change", () => {
    const p = project();
    expect(codes(runLint(p.dir))).toEqual([]);
    p.write(
      ".claude/playbook.json",
      JSON.stringify({ lint: { bannedPhrases: ["exports"] } }),
    );
    expect(
      runLint(p.dir).diagnostics.map((d) => `${d.file} ${d.code}`),
    ).toContain(`${PLAYBOOK} criterion-vague`);
  });

  it("rebuilds a corrupt entry, and one stored for other text, instead of trusting it", () => {
    const p = project();
    const truth = runLint(p.dir);
    p.write(ENTRY, "{ not json");
    expect(runLint(p.dir)).toStrictEqual(truth);
    const entry = JSON.parse(p.read(ENTRY)) as {
      key: { text: string };
      result: { playbook: { phases: { subtasks: { id: string }[] }[] } };
    };
    entry.key.text = "0".repeat(64);
    entry.result.playbook.phases[0]!.subtasks[0]!.id = "forged";
    p.write(ENTRY, JSON.stringify(entry));
    expect(runLint(p.dir)).toStrictEqual(truth);
  });
});
