import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summarizePlaybook } from "../../../../src/core/cache/summary.ts";
import {
  sortDiagnostics,
  type Diagnostic,
  type Span,
} from "../../../../src/core/model/diagnostic.ts";
import type { Playbook } from "../../../../src/core/model/playbook.ts";
import type { StateDoc } from "../../../../src/core/model/state.ts";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import { parseState } from "../../../../src/core/parse/parse-state.ts";
import { validatePlaybook } from "../../../../src/core/validate/validate-playbook.ts";
import {
  validateWorkspace,
  type WorkspaceFacts,
} from "../../../../src/core/validate/validate-workspace.ts";
import { emittedCodes } from "../../../helpers/emitted-codes.ts";
import { fixturePath, readFixture } from "../../../helpers/read-fixture.ts";
import { withoutSpans } from "../../../helpers/sample-docs.ts";

const LARGE_PLAYBOOK = "playbooks/large-1000-subtasks.md";

function listFixtures(dir: "state" | "playbooks"): string[] {
  return readdirSync(fixturePath(dir))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `${dir}/${name}`);
}

const STATE_FIXTURES = listFixtures("state");
const PLAYBOOK_FIXTURES = listFixtures("playbooks");
const ALL_FIXTURES = [...STATE_FIXTURES, ...PLAYBOOK_FIXTURES];

interface Result<T> {
  value: T;
  diagnostics: Diagnostic[];
}

const stateResults = new Map<string, Result<StateDoc>>();
const playbookResults = new Map<string, Result<Playbook>>();

/** Parses a state fixture once; diagnostics name the fixture by its path under test/fixtures. */
function stateFixture(path: string): Result<StateDoc> {
  let result = stateResults.get(path);
  if (!result) {
    const parsed = parseState(readFixture(path), path);
    result = {
      value: parsed.value,
      diagnostics: sortDiagnostics(parsed.diagnostics),
    };
    stateResults.set(path, result);
  }
  return result;
}

/** Parses and lints a playbook fixture once, as `playbook lint` does. */
function playbookFixture(path: string): Result<Playbook> {
  let result = playbookResults.get(path);
  if (!result) {
    const parsed = parsePlaybook(readFixture(path), path);
    result = {
      value: parsed.value,
      diagnostics: sortDiagnostics([
        ...parsed.diagnostics,
        ...validatePlaybook(parsed.value, path),
      ]),
    };
    playbookResults.set(path, result);
  }
  return result;
}

function fixtureDiagnostics(path: string): Diagnostic[] {
  return path.startsWith("state/")
    ? stateFixture(path).diagnostics
    : playbookFixture(path).diagnostics;
}

function codesOf(diagnostics: readonly Diagnostic[]): string[] {
  return [...new Set(diagnostics.map((d) => d.code))].sort();
}

/** The source text a span covers. */
function sliceOf(text: string, span: Span): string {
  return text.slice(span.start.offset, span.end.offset);
}

/**
 * Fixtures whose current output is wrong in part. They stay out of the snapshots (a snapshot would bless the
 * mistake); the parts that are right are asserted below.
 */
const KNOWN_WRONG: Record<string, string> = {};

/** Fixtures that parse and lint without a single diagnostic. */
const VALID = [
  "state/minimal-valid.md",
  "state/full-with-prose.md",
  "state/crlf-line-endings.md",
  "state/utf8-bom.md",
  "state/active-path-unsafe.md",
  "state/active-missing.md",
  "state/branch-mismatch.md",
  "state/phase-unknown.md",
  "playbooks/minimal-valid.md",
  "playbooks/full-realistic.md",
  "playbooks/frontmatter-meta.md",
  "playbooks/crlf-line-endings.md",
  "playbooks/tab-indented-lists.md",
  "playbooks/japanese-text.md",
  "playbooks/korean-text.md",
  "playbooks/uppercase-checkbox.md",
  "playbooks/no-phase-separators.md",
  "playbooks/lazy-status-line.md",
  LARGE_PLAYBOOK,
];

/** Every diagnostic fixture and the exact set of codes it produces. */
const EXPECTED_CODES: [string, string[]][] = [
  ["state/yaml-syntax.md", ["yaml-syntax"]],
  ["state/yaml-duplicate-key.md", ["yaml-syntax"]],
  ["state/yaml-unclosed-quote.md", ["yaml-syntax"]],
  ["state/yaml-not-mapping.md", ["yaml-not-mapping"]],
  ["state/yaml-block-missing.md", ["yaml-block-missing"]],
  ["state/yaml-block-extra.md", ["yaml-block-extra"]],
  ["state/fence-unclosed.md", ["fence-unclosed"]],
  ["state/section-missing.md", ["section-missing"]],
  ["state/section-duplicate.md", ["section-duplicate"]],
  ["state/field-invalid.md", ["field-invalid"]],
  ["state/field-unknown.md", ["field-unknown"]],
  ["state/security-moved.md", ["security-moved"]],
  ["playbooks/section-missing.md", ["section-missing"]],
  ["playbooks/section-duplicate.md", ["section-duplicate"]],
  ["playbooks/field-invalid.md", ["field-invalid"]],
  ["playbooks/field-unknown.md", ["field-unknown"]],
  ["playbooks/section-unknown.md", ["section-unknown"]],
  ["playbooks/label-unknown.md", ["field-unknown", "label-unknown"]],
  ["state/section-unknown.md", ["section-unknown"]],
  ["playbooks/setext-phase-separator.md", ["setext-heading"]],
  ["playbooks/phase-status-invalid.md", ["phase-status-invalid"]],
  ["playbooks/subtask-id-missing.md", ["subtask-id-missing"]],
  ["playbooks/meta-branch-missing.md", ["meta-branch-missing"]],
  ["playbooks/meta-project-missing.md", ["meta-project-missing"]],
  ["playbooks/goal-summary-missing.md", ["goal-summary-missing"]],
  ["playbooks/done-when-missing.md", ["done-when-missing"]],
  ["playbooks/context-missing.md", ["context-missing"]],
  ["playbooks/phases-missing.md", ["phases-missing"]],
  [
    "playbooks/phase-id-invalid.md",
    ["phase-id-invalid", "phase-without-subtasks"],
  ],
  ["playbooks/phase-id-duplicate.md", ["phase-id-duplicate"]],
  ["playbooks/subtask-id-invalid.md", ["subtask-id-invalid"]],
  ["playbooks/subtask-outside-phase.md", ["subtask-outside-phase"]],
  ["playbooks/subtask-id-duplicate.md", ["subtask-id-duplicate"]],
  ["playbooks/final-task-id-invalid.md", ["final-task-id-invalid"]],
  ["playbooks/final-task-id-duplicate.md", ["final-task-id-duplicate"]],
  ["playbooks/depends-unknown.md", ["depends-unknown"]],
  ["playbooks/depends-cycle-phases.md", ["depends-cycle"]],
  ["playbooks/depends-cycle-subtasks.md", ["depends-cycle"]],
  ["playbooks/phase-without-subtasks.md", ["phase-without-subtasks"]],
  ["playbooks/criterion-missing.md", ["criterion-missing"]],
  ["playbooks/criterion-vague.md", ["criterion-vague"]],
  ["playbooks/criterion-vague-done-when.md", ["criterion-vague"]],
  ["playbooks/checkbox-invalid.md", ["checkbox-invalid"]],
  ["playbooks/checkbox-missing.md", ["checkbox-missing"]],
  ["playbooks/executor-invalid.md", ["executor-invalid"]],
  ["playbooks/role-invalid.md", ["role-invalid"]],
  ["state/role-invalid.md", ["role-invalid"]],
  ["playbooks/yaml-syntax.md", ["yaml-syntax"]],
  ["playbooks/phase-id-invalid-with-subtasks.md", ["phase-id-invalid"]],
  ["playbooks/criterion-vague-japanese.md", ["criterion-vague"]],
  ["playbooks/criterion-vague-korean.md", ["criterion-vague"]],
  ["playbooks/validation-missing.md", ["validation-missing"]],
  ["playbooks/lazy-status-after-bare-subtask.md", ["validation-missing"]],
  ["playbooks/validation-kind-missing.md", ["validation-kind-missing"]],
  ["playbooks/validation-text-missing.md", ["validation-text-missing"]],
  ["playbooks/phase-done-open-subtasks.md", ["phase-done-open-subtasks"]],
  ["playbooks/utf8-bom.md", ["validation-kind-missing"]],
];

/** State fixtures that parse cleanly but break a workspace rule, with the facts and playbook they are checked against. */
const WORKSPACE_CASES: [
  string,
  Omit<WorkspaceFacts, "stateFile" | "active">,
  string | null,
  Pick<Diagnostic, "code" | "file" | "line" | "column">[],
][] = [
  [
    "state/active-path-unsafe.md",
    {},
    null,
    [
      {
        code: "active-path-unsafe",
        file: "state/active-path-unsafe.md",
        line: 3,
        column: 9,
      },
    ],
  ],
  [
    "state/active-missing.md",
    { activeExists: false },
    null,
    [
      {
        code: "active-missing",
        file: "state/active-missing.md",
        line: 3,
        column: 9,
      },
    ],
  ],
  [
    "state/branch-mismatch.md",
    { activeExists: true },
    "playbooks/minimal-valid.md",
    [
      {
        code: "branch-mismatch",
        file: "playbooks/minimal-valid.md",
        line: 4,
        column: 9,
      },
    ],
  ],
  [
    "state/phase-unknown.md",
    { activeExists: true },
    "playbooks/minimal-valid.md",
    [
      {
        code: "phase-unknown",
        file: "state/phase-unknown.md",
        line: 11,
        column: 8,
      },
    ],
  ],
  [
    "state/full-with-prose.md",
    { activeExists: true },
    "playbooks/full-realistic.md",
    [],
  ],
];

/** Every code the parsers and rules in src/core emit; each must have a fixture above. */
const ALL_CODES = emittedCodes("core");

describe("the fixture corpus", () => {
  it("has at least 30 documents, each listed as valid, as a diagnostic case or as known wrong", () => {
    expect(ALL_FIXTURES.length).toBeGreaterThanOrEqual(30);
    const listed = new Set([
      ...VALID,
      ...EXPECTED_CODES.map(([path]) => path),
      ...Object.keys(KNOWN_WRONG),
    ]);
    expect(ALL_FIXTURES.filter((path) => !listed.has(path))).toEqual([]);
    expect([...listed].filter((path) => !ALL_FIXTURES.includes(path))).toEqual(
      [],
    );
  });

  it("has a fixture for every diagnostic code", () => {
    const covered = new Set([
      ...EXPECTED_CODES.flatMap(([, codes]) => codes),
      ...WORKSPACE_CASES.flatMap(([, , , expected]) =>
        expected.map((d) => d.code),
      ),
    ]);
    expect(ALL_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });
});

describe("fixture snapshots", () => {
  const snapshotted = ALL_FIXTURES.filter((path) => !(path in KNOWN_WRONG));

  it.each(snapshotted)("%s", async (path) => {
    const result = path.startsWith("state/")
      ? stateFixture(path)
      : playbookFixture(path);
    const snapshot =
      path === LARGE_PLAYBOOK
        ? summarizePlaybook(playbookFixture(path).value, result.diagnostics)
        : { value: result.value, diagnostics: result.diagnostics };
    const json = `${JSON.stringify(snapshot, null, 2)}\n`;
    await expect(json).toMatchFileSnapshot(
      fixturePath(path.replace(/\.md$/, ".expected.json")),
    );
  });
});

describe("diagnostic codes", () => {
  it.each(VALID)("%s has no diagnostics", (path) => {
    expect(fixtureDiagnostics(path)).toEqual([]);
  });

  it.each(EXPECTED_CODES)("%s reports %j", (path, codes) => {
    expect(codesOf(fixtureDiagnostics(path))).toEqual([...codes].sort());
  });

  it.each(ALL_FIXTURES)(
    "%s: every diagnostic points at a character of the file",
    (path) => {
      const lines = readFixture(path)
        .replace(/^\uFEFF/, "")
        .split(/\r?\n/);
      for (const d of fixtureDiagnostics(path)) {
        expect(d.file).toBe(path);
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.line).toBeLessThanOrEqual(lines.length);
        expect(d.column).toBeGreaterThanOrEqual(1);
        expect(d.column).toBeLessThanOrEqual(
          (lines[d.line - 1] ?? "").length + 1,
        );
      }
    },
  );

  it.each([
    // yaml errors point at their line in the markdown file, not at a line of the block.
    ["state/yaml-syntax.md", "yaml-syntax", 14, 8, "p2: export endpoint"],
    ["state/yaml-duplicate-key.md", "yaml-syntax", 6, 1, "branch: feat/other"],
    ["playbooks/yaml-syntax.md", "yaml-syntax", 14, 25, "with code 0"],
    ["state/yaml-not-mapping.md", "yaml-not-mapping", 10, 1, "- milestone"],
    ["state/fence-unclosed.md", "fence-unclosed", 23, 1, "```yaml"],
    ["state/field-invalid.md", "field-invalid", 12, 16, "npm test exits 0"],
    ["playbooks/field-invalid.md", "field-invalid", 24, 21, "0"],
    [
      "playbooks/phase-status-invalid.md",
      "phase-status-invalid",
      34,
      13,
      "blocked",
    ],
    ["playbooks/phase-id-invalid.md", "phase-id-invalid", 38, 1, "### phase-2"],
    [
      "playbooks/phase-id-invalid-with-subtasks.md",
      "phase-id-invalid",
      21,
      1,
      "### Phase 1",
    ],
    ["playbooks/depends-cycle-phases.md", "depends-cycle", 23, 17, "[p3]"],
    [
      "playbooks/criterion-vague-done-when.md",
      "criterion-vague",
      14,
      5,
      '"the CLI works well on Windows"',
    ],
    ["state/yaml-unclosed-quote.md", "yaml-syntax", 24, 12, '"B'],
    [
      "playbooks/validation-text-missing.md",
      "validation-text-missing",
      30,
      20,
      '"automated"',
    ],
    [
      "playbooks/phase-done-open-subtasks.md",
      "phase-done-open-subtasks",
      48,
      13,
      "done",
    ],
  ] as const)(
    "%s reports %s at %i:%i, on `%s`",
    (path, code, line, column, text) => {
      const lines = readFixture(path).split(/\r?\n/);
      expect(
        fixtureDiagnostics(path)
          .filter((d) => d.code === code)
          .map((d) => [d.line, d.column]),
      ).toContainEqual([line, column]);
      expect(lines[line - 1]?.slice(column - 1, column - 1 + text.length)).toBe(
        text,
      );
    },
  );

  it.each([
    [
      "playbooks/phase-id-invalid.md",
      "phase-id-invalid",
      "Rename the heading to `### p2: Release`.",
    ],
    [
      "playbooks/phase-id-invalid.md",
      "phase-without-subtasks",
      "`- [ ] **p2.1**: <criterion>`",
    ],
    [
      "playbooks/phase-id-invalid-with-subtasks.md",
      "phase-id-invalid",
      "Rename the heading to `### p1: Greeting command`.",
    ],
  ])("%s: %s suggests an id no other phase uses", (path, code, fix) => {
    const messages = fixtureDiagnostics(path)
      .filter((d) => d.code === code)
      .map((d) => d.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(fix);
  });

  it("falls back to defaults for a broken yaml block and still reads the other sections", () => {
    const { value } = stateFixture("state/yaml-unclosed-quote.md");
    expect(value.config).toEqual({
      security: "strict",
      toolstack: "A",
      roles: {},
    });
    expect(value.playbook.active).toBeNull();
    expect(value.goal.status).toBe("idle");
  });
});

describe("workspace rules on the state fixtures", () => {
  it.each(WORKSPACE_CASES)(
    "%s with %j and %s",
    (statePath, facts, playbookPath, expected) => {
      const state = stateFixture(statePath).value;
      const active = playbookPath
        ? { file: playbookPath, playbook: playbookFixture(playbookPath).value }
        : undefined;
      const diagnostics = validateWorkspace(state, {
        stateFile: statePath,
        ...facts,
        ...(active ? { active } : {}),
      });
      expect(
        diagnostics.map(({ code, file, line, column }) => ({
          code,
          file,
          line,
          column,
        })),
      ).toEqual(expected);
    },
  );
});

describe("odd encodings and layouts", () => {
  it("reads a CRLF playbook like its LF twin", () => {
    const text = readFixture("playbooks/crlf-line-endings.md");
    expect(text.split("\r\n").length).toBe(text.split("\n").length);
    const crlf = playbookFixture("playbooks/crlf-line-endings.md").value;
    const lf = playbookFixture("playbooks/full-realistic.md").value;
    const tasks = (playbook: Playbook) =>
      playbook.phases.flatMap((phase) =>
        phase.subtasks.map((s) => [s.id, s.checked, s.criterion]),
      );
    expect(tasks(crlf)).toEqual(tasks(lf));
    expect(tasks(crlf)).toHaveLength(5);
    expect(withoutSpans(crlf.phases)).toEqual(withoutSpans(lf.phases));
    expect(withoutSpans(crlf.finalTasks)).toEqual(withoutSpans(lf.finalTasks));
    expect(crlf.meta).toEqual(lf.meta);
    expect(crlf.goal).toEqual(lf.goal);
    expect(crlf.context?.text.replace(/\r\n/g, "\n")).toBe(lf.context?.text);
    const starts = (playbook: Playbook) =>
      playbook.phases.flatMap((phase) => [
        [phase.heading.start.line, phase.heading.start.column],
        ...phase.subtasks.map((s) => [
          s.span.start.line,
          s.checkbox.start.column,
        ]),
      ]);
    expect(starts(crlf)).toEqual(starts(lf));
  });

  it("reads a CRLF state.md like its LF twin", () => {
    const crlf = stateFixture("state/crlf-line-endings.md").value;
    const lf = stateFixture("state/full-with-prose.md").value;
    expect(withoutSpans(crlf)).toEqual(withoutSpans(lf));
    const fieldStarts = (state: StateDoc) =>
      Object.values(state.sections).flatMap((section) =>
        Object.entries(section.fields).map(([key, span]) => [
          key,
          span.start.line,
          span.start.column,
        ]),
      );
    expect(fieldStarts(crlf)).toEqual(fieldStarts(lf));
    expect(fieldStarts(crlf)).toHaveLength(11);
  });

  it("keeps positions right after a UTF-8 BOM in state.md", () => {
    const text = readFixture("state/utf8-bom.md");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const { value } = stateFixture("state/utf8-bom.md");
    const section = value.sections.playbook;
    const active = section?.fields["active"];
    expect(section?.span.start).toEqual({ line: 1, column: 1, offset: 1 });
    expect(section?.block?.start).toEqual({ line: 3, column: 1, offset: 21 });
    expect(active?.start).toMatchObject({ line: 3, column: 9 });
    expect(sliceOf(text, active!)).toBe("plan/playbook-bom-check.md");
    expect(value.playbook.active).toBe("plan/playbook-bom-check.md");
    expect(value.goal.phase).toBe("p1");
  });

  it("keeps positions right after a UTF-8 BOM in a playbook with frontmatter", () => {
    const text = readFixture("playbooks/utf8-bom.md");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const { value, diagnostics } = playbookFixture("playbooks/utf8-bom.md");
    expect(value.sections.meta?.span.start).toEqual({
      line: 1,
      column: 1,
      offset: 1,
    });
    const branch = value.sections.meta?.fields["branch"];
    expect(branch?.start).toMatchObject({ line: 3, column: 9 });
    expect(sliceOf(text, branch!)).toBe("feat/bom-check");
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ["validation-kind-missing", 28, 18],
    ]);
    const technical = value.phases[0]?.subtasks[0]?.validations.technical;
    expect(technical?.kind).toBe("unspecified");
    expect(sliceOf(text, technical!.span)).toBe(
      "npx vitest run test/bom.test.ts",
    );
    expect(technical?.span.start).toMatchObject({ line: 28, column: 18 });
  });

  it("reads nested validations indented with tabs", () => {
    expect(readFixture("playbooks/tab-indented-lists.md")).toContain(
      "\n\t\t- technical:",
    );
    const [first, second] =
      playbookFixture("playbooks/tab-indented-lists.md").value.phases[0]
        ?.subtasks ?? [];
    const summary = (
      validations: Playbook["phases"][number]["subtasks"][number]["validations"],
    ) =>
      Object.fromEntries(
        Object.entries(validations).map(([name, v]) => [
          name,
          [v.kind, v.text],
        ]),
      );
    expect(first?.executor).toBe("claudecode");
    expect(summary(first!.validations)).toEqual({
      technical: ["automated", "npx vitest run test/hello.test.ts"],
      consistency: ["automated", "npx tsc --noEmit"],
      completeness: ["manual", "the greeting matches docs/cli.md"],
    });
    expect(second?.executor).toBe("codex");
    expect(second?.dependsOn).toEqual(["p1.1"]);
    expect(summary(second!.validations)).toEqual({
      technical: ["automated", "npx vitest run test/hello.test.ts -t name"],
      consistency: ["automated", "npx eslint src --max-warnings=0"],
      completeness: [
        "hybrid",
        "node cli.js hello --name Ann + the name is not escaped",
      ],
    });
  });

  it("treats `[X]` as checked", () => {
    const text = readFixture("playbooks/uppercase-checkbox.md");
    const { value } = playbookFixture("playbooks/uppercase-checkbox.md");
    const subtasks = value.phases[0]?.subtasks ?? [];
    expect(subtasks.map((s) => [s.id, s.checked])).toEqual([
      ["p1.1", true],
      ["p1.2", true],
      ["p1.3", false],
    ]);
    expect(sliceOf(text, subtasks[0]!.checkbox)).toBe("[X]");
    expect(value.finalTasks.map((t) => [t.id, t.checked])).toEqual([
      ["ft1", true],
      ["ft2", false],
    ]);
    expect(sliceOf(text, value.finalTasks[0]!.checkbox)).toBe("[X]");
  });

  it("reads phases that follow each other without `---`", () => {
    const { value } = playbookFixture("playbooks/no-phase-separators.md");
    expect(
      value.phases.map((p) => [
        p.id,
        p.name,
        p.dependsOn,
        p.status,
        p.subtasks.map((s) => s.id),
      ]),
    ).toEqual([
      ["p1", "Greeting command", [], "pending", ["p1.1"]],
      ["p2", "Farewell command", ["p1"], "pending", ["p2.1"]],
      ["p3", "Help text", ["p1", "p2"], "pending", ["p3.1"]],
    ]);
  });

  it("reads `**status**` lines folded into the last list item", () => {
    const { value } = playbookFixture("playbooks/lazy-status-line.md");
    const [p1, p2] = value.phases;
    expect([p1?.status, p1?.maxIterations]).toEqual(["done", 4]);
    expect([p2?.status, p2?.timeLimit]).toEqual(["in_progress", "30m"]);
    expect(p1?.subtasks[1]?.dependsOn).toEqual(["p1.1"]);
    expect(p2?.subtasks[0]?.validations.completeness?.text).toBe(
      "the output of p2.1 matches docs/cli.md",
    );

    const bare = playbookFixture("playbooks/lazy-status-after-bare-subtask.md")
      .value.phases[0];
    expect([bare?.status, bare?.maxIterations]).toEqual(["in_progress", 2]);
    expect(bare?.subtasks.map((s) => s.criterion)).toEqual([
      "`node cli.js hello` prints `hello` and exits 0",
      "`node cli.js hello --name Ann` prints `hello Ann`",
    ]);
  });

  it("reads the phases of a playbook whose `---` sits right under the status line", () => {
    const { value, diagnostics } = playbookFixture(
      "playbooks/setext-phase-separator.md",
    );
    const twin = playbookFixture("playbooks/full-realistic.md").value;
    expect(withoutSpans(value.phases)).toEqual(withoutSpans(twin.phases));
    expect(diagnostics.map((d) => [d.code, d.severity, d.line])).toEqual([
      ["setext-heading", "warning", 50],
    ]);
  });

  it("reads full-width colons, なし and 、 in a Japanese playbook", () => {
    const { value } = playbookFixture("playbooks/japanese-text.md");
    expect(
      value.phases.map((p) => [p.id, p.name, p.goal, p.dependsOn, p.status]),
    ).toEqual([
      [
        "p1",
        "フォーム部品",
        "ログインフォームが表示され、入力を検証する",
        [],
        "in_progress",
      ],
      [
        "p2",
        "送信",
        "送信すると `POST /api/login` が呼ばれる",
        ["p1"],
        "pending",
      ],
    ]);
    const subtasks = value.phases.flatMap((p) => p.subtasks);
    expect(subtasks.map((s) => [s.id, s.checked, s.dependsOn])).toEqual([
      ["p1.1", false, []],
      ["p1.2", true, ["p1.1"]],
      ["p2.1", false, ["p1.1", "p1.2"]],
    ]);
    expect(subtasks[1]?.criterion).toBe(
      "メールが空のとき「メールアドレスは必須です」と表示する",
    );
    expect(value.finalTasks.map((t) => [t.id, t.text])).toEqual([
      ["ft1", "CHANGELOG.md に「ログインフォーム」の項目がある"],
    ]);
  });

  it("reads 없음 and Korean criteria in a Korean playbook", () => {
    const { value } = playbookFixture("playbooks/korean-text.md");
    const [phase] = value.phases;
    expect([phase?.id, phase?.name, phase?.dependsOn]).toEqual([
      "p1",
      "폼 컴포넌트",
      [],
    ]);
    expect(
      phase?.subtasks.map((s) => [s.id, s.criterion, s.dependsOn]),
    ).toEqual([
      ["p1.1", "`src/login-form.tsx` 가 `LoginForm` 을 export 한다 🔐", []],
      [
        "p1.2",
        '이메일이 비어 있으면 "이메일은 필수입니다" 를 표시한다',
        ["p1.1"],
      ],
    ]);
    expect(value.meta.project).toBe("로그인-폼");
  });

  it("reads meta from YAML frontmatter", () => {
    const { value } = playbookFixture("playbooks/frontmatter-meta.md");
    expect(value.meta).toEqual({
      project: "dark-mode",
      branch: "feat/dark-mode",
      created: "2026-11-21",
      issue: null,
      reviewed: false,
      roles: { worker: "claudecode" },
    });
    expect(value.sections.meta?.span.start.line).toBe(1);
    expect(value.sections.meta?.fields["branch"]?.start).toMatchObject({
      line: 3,
      column: 9,
    });
  });
});
