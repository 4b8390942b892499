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

describe("what the user meant: misspelt sections, labels and fields", () => {
  const diagnosticsOf = (text: string) =>
    parsePlaybook(text, "p.md").diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      line: d.line,
      message: d.message,
    }));
  const lineOf = (text: string, line: string) =>
    text.split("\n").indexOf(line) + 1;

  it("`## final-tasks` is reported at its line with the section it means, and its tasks are not silently dropped", () => {
    const text = SAMPLE_PLAYBOOK.replace("## final_tasks", "## final-tasks");
    expect(diagnosticsOf(text)).toEqual([
      {
        code: "section-unknown",
        severity: "error",
        line: lineOf(text, "## final-tasks"),
        message:
          "Unexpected section `## final-tasks`, expected `## final_tasks`; it is read as `## final_tasks` until you rename the heading.",
      },
    ]);
    expect(
      parsePlaybook(text, "p.md").value.finalTasks.map((t) => t.id),
    ).toEqual(["ft1"]);
  });

  it.each([
    ["## contxt", "## context"],
    ["## phasess", "## phases"],
    ["## Meta data", null],
  ])(
    "a missing required section names the heading that misspells it: %s",
    (typo, meant) => {
      const original = meant ?? "## meta";
      const text = SAMPLE_PLAYBOOK.replace(original, typo);
      const found = diagnosticsOf(text);
      if (meant === null) {
        // Not close to any name: the section is missing, and the unknown heading is a warning.
        expect(found.map((d) => [d.code, d.severity])).toContainEqual([
          "section-unknown",
          "warning",
        ]);
        return;
      }
      expect(found[0]).toEqual({
        code: "section-unknown",
        severity: "error",
        line: lineOf(text, typo),
        message: `Unexpected section \`${typo}\`, expected \`${meant}\`; it is read as \`${meant}\` until you rename the heading.`,
      });
      expect(found).toHaveLength(1);
    },
  );

  it("an unrelated extra section is a warning, not an error", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "## final_tasks",
      "## notes\nAsk Sam about the copy.\n\n## final_tasks",
    );
    expect(diagnosticsOf(text)).toEqual([
      {
        code: "section-unknown",
        severity: "warning",
        line: lineOf(text, "## notes"),
        message:
          "Unexpected section `## notes`, expected meta, goal, context, phases or final_tasks; playbook ignores it. Put notes in `## context`, or remove the section.",
      },
    ]);
  });

  it("`- executer:` is reported with the field it means, and read as it", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "  - executor: claudecode",
      "  - executer: claudecode",
    );
    const parsed = parsePlaybook(text, "p.md");
    expect(parsed.value.phases[0]?.subtasks[0]?.executor).toBe("claudecode");
    expect(diagnosticsOf(text)).toEqual([
      {
        code: "field-unknown",
        severity: "error",
        line: lineOf(text, "  - executer: claudecode"),
        message:
          "Unexpected field `executer:` in p1.1, expected `executor:`; it is read as `executor:` until you fix the spelling.",
      },
    ]);
  });

  it("a misspelt validation and a misspelt phase label are reported with what they mean", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      '    - technical: "automated - npx vitest run test/login-form.test.ts"\n',
      '    - technicl: "automated - npx vitest run test/login-form.test.ts"\n',
    ).replace("**max_iterations**: 5", "**max_iteration**: 5");
    const found = diagnosticsOf(text);
    expect(found).toContainEqual({
      code: "field-unknown",
      severity: "error",
      line: lineOf(
        text,
        '    - technicl: "automated - npx vitest run test/login-form.test.ts"',
      ),
      message:
        "Unexpected field `technicl:` in p1.1, expected `technical:`; it is read as `technical:` until you fix the spelling.",
    });
    expect(found).toContainEqual({
      code: "label-unknown",
      severity: "error",
      line: lineOf(text, "**max_iteration**: 5"),
      message:
        "Unexpected label `**max_iteration**` in p1, expected `**max_iterations**`; it is read as `**max_iterations**` until you fix the spelling.",
    });
    expect(found).toHaveLength(2);
    expect(parsePlaybook(text, "p.md").value.phases[0]?.maxIterations).toBe(5);
  });

  it("a note-like field that is close to nothing is a warning", () => {
    const text = SAMPLE_PLAYBOOK.replace(
      "  - executor: claudecode",
      "  - executor: claudecode\n  - note: ask Sam",
    );
    expect(diagnosticsOf(text).map((d) => [d.code, d.severity])).toEqual([
      ["field-unknown", "warning"],
    ]);
  });
});

describe("parseState regressions", () => {
  it("a misspelt section of state.md is reported at its line with the one it means; other sections are prose", () => {
    const text = `${SAMPLE_STATE.replace("## session", "## sesion")}\n## notes\nAsk Sam.\n`;
    const found = parseState(text, "state.md").diagnostics.map((d) => [
      d.code,
      d.severity,
      d.line,
      d.message,
    ]);
    expect(found).toEqual([
      [
        "section-unknown",
        "error",
        text.split("\n").indexOf("## sesion") + 1,
        "Unexpected section `## sesion`, expected `## session`; it is read as `## session` until you rename the heading.",
      ],
    ]);
  });

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
