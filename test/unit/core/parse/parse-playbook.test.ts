import { describe, expect, it } from "vitest";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import { parseState } from "../../../../src/core/parse/parse-state.ts";
import { validatePlaybook } from "../../../../src/core/validate/validate-playbook.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../../../helpers/sample-docs.ts";

const lint = (text: string) => {
  const parsed = parsePlaybook(text, "p.md");
  return {
    value: parsed.value,
    codes: [
      ...parsed.diagnostics,
      ...validatePlaybook(parsed.value, "p.md"),
    ].map((d) => d.code),
  };
};

describe("parsePlaybook regressions", () => {
  it("keeps the next phase when `---` sits right under a label (setext underline), and warns", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "**status**: in_progress\n**max_iterations**: 5\n\n---\n",
      "\n**status**: in_progress\n**max_iterations**: 5\n---\n",
    );
    const { value, codes } = lint(text);
    expect(value.phases.map((p) => p.id)).toEqual(["p1", "p2"]);
    expect(value.phases[0]?.maxIterations).toBe(5);
    expect(codes).toEqual(["setext-heading"]);
    const diagnostic = parsePlaybook(text, "p.md").diagnostics[0];
    expect(diagnostic?.line).toBe(
      text.split("\n").indexOf("**status**: in_progress") + 1,
    );
    expect(value.phases[0]?.status).toBe("in_progress");
  });

  it("reads a status label that markdown turned into a setext heading", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "\n**status**: pending\n",
      "\n**status**: done\n---\n",
    );
    const { value, codes } = lint(text);
    expect(value.phases[1]?.status).toBe("done");
    expect(codes).toContain("phase-done-open-subtasks");
  });

  it("ignores bold-led note items that are not subtasks", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "#### subtasks\n- [ ] **p2.1**",
      "- **Risk**: the API may rate-limit logins\n\n#### subtasks\n- [ ] **p2.1**",
    );
    const { value, codes } = lint(text);
    expect(value.phases[1]?.subtasks.map((s) => s.id)).toEqual(["p2.1"]);
    expect(codes).toEqual([]);
  });

  it("still reports a checkbox item with a malformed id", () => {
    const text = SAMPLE_PLAYBOOK.replace("- [ ] **p2.1**", "- [ ] **Risk**");
    expect(lint(text).codes).toContain("subtask-id-invalid");
  });

  it("does not call final_tasks required", () => {
    const text = SAMPLE_PLAYBOOK.slice(
      0,
      SAMPLE_PLAYBOOK.indexOf("## final_tasks"),
    );
    expect(lint(text).codes).toEqual([]);
  });
});

describe("parseState regressions", () => {
  it("keeps the next section when `---` sits right under prose", () => {
    const text = SAMPLE_STATE.replace(
      "Where this project stands. Edited by people and by playbook.\n",
      "Where this project stands.\n---\n",
    );
    const parsed = parseState(text, "state.md");
    expect(parsed.value.playbook.active).toBe("plan/playbook-login-form.md");
    expect(parsed.diagnostics.map((d) => d.code)).toEqual(["setext-heading"]);
  });
});

describe("hostile input", () => {
  const aliasBomb =
    "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n";

  it("reports YAML that expands aliases too far instead of throwing", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "roles: {worker: claudecode}\n",
      `roles: {worker: claudecode}\n${aliasBomb}`,
    );
    const parsed = parsePlaybook(text, "p.md");
    const line = text.split("\n").indexOf("project: login-form") + 1;
    expect(parsed.diagnostics).toMatchObject([{ code: "yaml-syntax", line }]);
    expect(parsed.diagnostics[0]?.message).toMatch(/aliases/);
    expect(
      parseState(
        SAMPLE_STATE.replace(
          "last_archived: null\n",
          `last_archived: null\n${aliasBomb}`,
        ),
        "s",
      ).diagnostics,
    ).toMatchObject([{ code: "yaml-syntax" }]);
  });

  // These lines made the label and field patterns backtrack quadratically (minutes at this size).
  it("reads labels and fields followed by long runs of spaces", () => {
    const spaces = " ".repeat(300_000);
    const text = SAMPLE_PLAYBOOK.replace(
      "**max_iterations**: 5",
      `**max_iterations**: 5\n**note**: a${spaces}b`,
    ).replace("  - executor: claudecode", `  - executor: claudecode${spaces}x`);
    const { value } = parsePlaybook(text, "p.md");
    expect(value.phases[0]?.labels["note"]?.value).toBe(`a${spaces}b`);
    expect(value.phases[0]?.subtasks[0]?.executor).toBe(`claudecode${spaces}x`);
  });
});

describe("markdown people really write", () => {
  const codesOf = (text: string) => lint(text).codes;

  it.each([
    ["- [ x ] **p1.1**", "[ x ]"],
    ["- [] **p1.1**", "[]"],
    ["- [✓] **p1.1**", "[✓]"],
  ])("keeps a subtask written %s and reports its checkbox", (item, box) => {
    const text = SAMPLE_PLAYBOOK.replace("- [ ] **p1.1**", item);
    const { value, codes } = lint(text);
    expect(value.phases[0]?.subtasks.map((s) => [s.id, s.checked])).toEqual([
      ["p1.1", false],
      ["p1.2", true],
    ]);
    expect(codes).toEqual(["checkbox-invalid"]);
    const diagnostic = parsePlaybook(text, "p.md").diagnostics[0];
    expect(diagnostic?.message).toContain(box);
  });

  it("reports a subtask without a checkbox", () => {
    const text = SAMPLE_PLAYBOOK.replace("- [ ] **p2.1**", "- **p2.1**");
    const { value, codes } = lint(text);
    expect(value.phases[1]?.subtasks.map((s) => s.id)).toEqual(["p2.1"]);
    expect(codes).toEqual(["checkbox-missing"]);
  });

  it("reads labels and ids with the colon inside the bold", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "**status**: pending",
      "**Status:** done",
    )
      .replace("**depends_on**: [p1]", "**depends_on:** [p9]")
      .replace("- [ ] **p2.1**:", "- [ ] **p2.1:**");
    const { value, codes } = lint(text);
    expect(value.phases[1]).toMatchObject({
      status: "done",
      dependsOn: ["p9"],
    });
    expect(value.phases[1]?.subtasks[0]?.id).toBe("p2.1");
    expect(codes).toEqual(["depends-unknown", "phase-done-open-subtasks"]);
  });

  it("reads an id after two spaces", () => {
    const { value, codes } = lint(
      SAMPLE_PLAYBOOK.replace("- [X] **p1.2**", "- [X]  **p1.2**"),
    );
    expect(value.phases[0]?.subtasks.map((s) => [s.id, s.checked])).toEqual([
      ["p1.1", false],
      ["p1.2", true],
    ]);
    expect(codes).toEqual([]);
  });

  it.each([
    ["<details>", "<summary>dropped ideas</summary>", "</details>"],
    ["<div>", "", "</div>"],
    ["<pre>", "", "</pre>"],
  ])(
    "keeps phases inside an HTML block (%s) out of the plan",
    (open, inner, close) => {
      const block = [
        open,
        inner,
        "### p3: dropped idea",
        "- [ ] **p3.1**: x",
        close,
      ]
        .filter((l) => l !== "")
        .join("\n");
      const text = SAMPLE_PLAYBOOK.replace(
        "## final_tasks",
        `${block}\n\n## final_tasks`,
      );
      const { value } = lint(text);
      expect(value.phases.map((p) => p.id)).toEqual(["p1", "p2"]);
    },
  );

  it.each([
    ["  - executor: claudecode", "  - executor: usr", "executor-invalid"],
    ["roles: {worker: claudecode}", "roles: {worker: claud}", "role-invalid"],
    [
      "roles: {worker: claudecode}",
      "roles: {wroker: claudecode}",
      "role-invalid",
    ],
  ])("reports %s written as %s", (from, to, code) => {
    expect(codesOf(SAMPLE_PLAYBOOK.replace(from, to))).toEqual([code]);
  });

  it("accepts a role name as executor", () => {
    expect(
      codesOf(
        SAMPLE_PLAYBOOK.replace(
          "  - executor: claudecode",
          "  - executor: worker",
        ),
      ),
    ).toEqual([]);
  });

  it("reports unknown roles in state.md", () => {
    const text = SAMPLE_STATE.replace("human: user}", "human: usr}");
    expect(parseState(text, "state.md").diagnostics.map((d) => d.code)).toEqual(
      ["role-invalid"],
    );
  });
});

describe("messages about what the user wrote", () => {
  it("quotes the line directly above a setext underline", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "**status**: in_progress\n**max_iterations**: 5\n\n---\n",
      "\n**status**: in_progress\n**max_iterations**: 5\n---\n",
    );
    expect(parsePlaybook(text, "p.md").diagnostics[0]?.message).toContain(
      'under "max_iterations: 5"',
    );
  });

  it("explains a second YAML document inside a block without naming library functions", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "issue: null\n",
      "issue: null\n---\nextra: 1\n",
    );
    const [diagnostic] = parsePlaybook(text, "p.md").diagnostics;
    expect(diagnostic).toMatchObject({
      code: "yaml-syntax",
      line: text.split("\n").indexOf("---") + 1,
    });
    expect(diagnostic?.message).toContain(
      "a `---` line inside the block starts a second YAML document",
    );
    expect(diagnostic?.message).not.toContain("parseAllDocuments");
  });
});
