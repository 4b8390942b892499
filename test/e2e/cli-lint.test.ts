import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.ts";
import { runCli } from "../helpers/run-cli.ts";
import { stateDoc } from "../helpers/sample-docs.ts";

/** Control characters a terminal acts on (C0 but tab and newline, DEL, C1): none may come from a document. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** `text` without SGR colour codes: ours, the only escape sequences allowed in human output. */
function withoutColors(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching the escape character is the point
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

interface StateFields {
  active?: string;
  branch?: string;
  phase?: string;
}

function stateMd({
  active = "plan/playbook-greet.md",
  branch = "feat/greet",
  phase = "p1",
}: StateFields = {}): string {
  return stateDoc({ active, branch, phase });
}

/** A playbook that lints clean; `criterion` replaces the text of p1.2. */
function greetPlaybook(
  criterion = '`greet --name Ada` prints "Hello, Ada"',
): string {
  return `## meta
\`\`\`yaml
project: greet
branch: feat/greet
created: 2026-11-21
issue: null
reviewed: false
\`\`\`

## goal
\`\`\`yaml
summary: The greet command prints a greeting and exits 0
done_when:
  - "npx vitest run test/greet.test.ts exits 0"
\`\`\`

## context
Who: the CLI team. What: a greet command. Why: new users need a first command to try.

## phases

### p1: Greeting
**goal**: \`greet\` prints "Hello"
**depends_on**: []

#### subtasks
- [x] **p1.1**: \`src/greet.ts\` exports \`greet\`
  - executor: claudecode
  - validations:
    - technical: "automated - npx vitest run test/greet.test.ts"
    - consistency: "automated - npx tsc --noEmit"
    - completeness: "manual - the README lists the greet command"
  - depends_on: []
- [ ] **p1.2**: ${criterion}
  - validations:
    - technical: "automated - npx vitest run test/greet.test.ts -t name"
    - consistency: "automated - npx tsc --noEmit"
    - completeness: "manual - the help text mentions --name"
  - depends_on: [p1.1]

**status**: in_progress

## final_tasks
- [ ] **ft1**: CHANGELOG.md has a "greet" entry
`;
}

/** A playbook with one of each kind of mistake (5 errors, 1 warning with BROKEN_STATE). */
const BROKEN_PLAYBOOK = `## meta
\`\`\`yaml
project: broken
branch: feat/broken
created: 2026-11-21
issue: null
reviewed: false
\`\`\`

## goal
\`\`\`yaml
summary: The broken playbook shows every kind of mistake
done_when:
  - "the page loads fast enough"
\`\`\`

## context
Who: the test suite. What: a playbook with mistakes. Why: lint must find them.

## phases

### p1: First
**goal**: \`a.txt\` and \`b.txt\` exist
**depends_on**: [p3]

#### subtasks
- [ ] **p1.1**: file \`a.txt\` exists
  - validations:
    - technical: "automated - test -f a.txt"
    - consistency: "automated - test -s a.txt"
    - completeness: "just look at it"
- [x] **p1.1**: file \`b.txt\` exists
  - validations:
    - technical: "automated - test -f b.txt"
    - consistency: "automated - test -s b.txt"
    - completeness: "manual - b.txt is not empty"

**status**: done
`;

const BROKEN_STATE = stateMd({
  active: "plan/playbook-broken.md",
  branch: "feat/broken",
  phase: "p7",
});

const DIAGNOSTIC_LINE =
  /^(?<file>[^\s:]+):(?<line>\d+):(?<column>\d+) {2}(?<severity>error|warning) {2}(?<message>.+) {2}\[(?<code>[a-z0-9-]+)\]$/;

interface JsonReport {
  files: string[];
  diagnostics: {
    code: string;
    severity: "error" | "warning";
    file: string;
    line: number;
    column: number;
    message: string;
  }[];
  errorCount: number;
  warningCount: number;
}

/** The text of `text` from 1-based `line` and `column` to the end of that line. */
function textAt(text: string, line: number, column: number): string {
  return (text.split("\n")[line - 1] ?? "").slice(column - 1);
}

function lintJson(dir: string, args: readonly string[] = []): JsonReport {
  const result = runCli(["lint", "--json", ...args], { cwd: dir });
  return JSON.parse(result.stdout) as JsonReport;
}

function codes(report: JsonReport): string[] {
  return report.diagnostics.map((d) => d.code);
}

function cleanProject() {
  return createTempProject({
    "state.md": stateMd(),
    "plan/playbook-greet.md": greetPlaybook(),
  });
}

function brokenProject() {
  return createTempProject({
    "state.md": BROKEN_STATE,
    "plan/playbook-broken.md": BROKEN_PLAYBOOK,
  });
}

describe("playbook lint", () => {
  it("exits 0 and prints only the count for a clean project", () => {
    const project = cleanProject();

    const result = runCli(["lint"], { cwd: project.dir });

    expect(result.stdout).toBe("0 errors, 0 warnings in 2 files\n");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("exits 1 and prints one `file:line:col  severity  message  [code]` line per problem, then the count", () => {
    const project = brokenProject();

    const result = runCli(["lint"], { cwd: project.dir });

    expect(result.status).toBe(1);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(7);
    for (const line of lines.slice(0, -1))
      expect(line).toMatch(DIAGNOSTIC_LINE);
    expect(lines.at(-1)).toBe("5 errors, 1 warning in 2 files");
    expect(lines).toContain(
      "plan/playbook-broken.md:32:1  error  Unexpected second subtask `p1.1`, expected each subtask id once. Renumber this subtask.  [subtask-id-duplicate]",
    );
    expect(lines).toContain(
      "state.md:15:8  error  Unexpected `phase: p7` in state.md, expected a phase id of plan/playbook-broken.md (p1). Fix the phase id.  [phase-unknown]",
    );
  });

  it.each([
    [
      "criterion-vague",
      "plan/playbook-broken.md",
      14,
      5,
      '"the page loads fast enough"',
      "error",
    ],
    ["depends-unknown", "plan/playbook-broken.md", 24, 17, "[p3]", "error"],
    [
      "validation-kind-missing",
      "plan/playbook-broken.md",
      31,
      21,
      '"just look at it"',
      "warning",
    ],
    [
      "subtask-id-duplicate",
      "plan/playbook-broken.md",
      32,
      1,
      "- [x] **p1.1**",
      "error",
    ],
    [
      "phase-done-open-subtasks",
      "plan/playbook-broken.md",
      38,
      13,
      "done",
      "error",
    ],
    ["phase-unknown", "state.md", 15, 8, "p7", "error"],
  ])(
    "reports %s in %s at %i:%i, where the text reads %s",
    (code, file, line, column, fragment, severity) => {
      const project = brokenProject();
      const text = file === "state.md" ? BROKEN_STATE : BROKEN_PLAYBOOK;
      expect(textAt(text, line, column).startsWith(fragment)).toBe(true);

      const result = runCli(["lint"], { cwd: project.dir });

      const reported = result.stdout
        .split("\n")
        .filter((l) => l.endsWith(`[${code}]`));
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatch(
        new RegExp(`^${file}:${line}:${column}  ${severity}  Unexpected `),
      );
    },
  );

  it("prints a JSON report with --json", () => {
    const project = brokenProject();

    const result = runCli(["lint", "--json"], { cwd: project.dir });

    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.files).toEqual(["state.md", "plan/playbook-broken.md"]);
    expect(report.errorCount).toBe(5);
    expect(report.warningCount).toBe(1);
    expect(report.diagnostics).toHaveLength(6);
    for (const diagnostic of report.diagnostics)
      expect(Object.keys(diagnostic).sort()).toEqual([
        "code",
        "column",
        "file",
        "line",
        "message",
        "severity",
      ]);
    const dependsUnknown = report.diagnostics.find(
      (d) => d.code === "depends-unknown",
    );
    expect(dependsUnknown).toMatchObject({
      severity: "error",
      file: "plan/playbook-broken.md",
      line: 24,
      column: 17,
    });
    expect(dependsUnknown?.message).toMatch(
      /^Unexpected `p3` in depends_on of p1, expected one of the phase ids \(p1\)\./,
    );
  });

  it("reports no diagnostics in JSON for a clean project", () => {
    const project = cleanProject();

    expect(lintJson(project.dir)).toEqual({
      files: ["state.md", "plan/playbook-greet.md"],
      diagnostics: [],
      errorCount: 0,
      warningCount: 0,
    });
  });

  // The broken project's state.md only has problems relative to its active playbook, which is not asked for here.
  it.each([
    [["plan/playbook-greet.md"], ["plan/playbook-greet.md"], [], 0],
    [
      ["plan/playbook-broken.md"],
      ["plan/playbook-broken.md"],
      ["plan/playbook-broken.md"],
      1,
    ],
    [
      ["./plan/playbook-greet.md", "state.md"],
      ["plan/playbook-greet.md", "state.md"],
      [],
      0,
    ],
  ])(
    "lints only the files given: %j",
    (args, files, diagnosedFiles, status) => {
      const project = brokenProject();
      project.write("plan/playbook-greet.md", greetPlaybook());

      const result = runCli(["lint", "--json", ...args], { cwd: project.dir });

      const report = JSON.parse(result.stdout) as JsonReport;
      expect(report.files).toEqual(files);
      expect([...new Set(report.diagnostics.map((d) => d.file))]).toEqual(
        diagnosedFiles,
      );
      expect(result.status).toBe(status);
    },
  );

  it("accepts an absolute file argument and reports it relative to the project", () => {
    const project = cleanProject();

    const report = lintJson(project.dir, [
      project.path("plan/playbook-greet.md"),
    ]);

    expect(report.files).toEqual(["plan/playbook-greet.md"]);
  });

  it.each([
    [
      ["plan/playbook-greet.md", "plan/playbook-nope.md"],
      "plan/playbook-nope.md:1:1  error  Unexpected missing file plan/playbook-nope.md, expected a markdown file. Check the path.  [file-missing]",
      "1 error, 0 warnings in 1 file",
    ],
    [
      [],
      "state.md:1:1  error  Unexpected project without state.md, expected one at the repository root. Run `playbook init` to set the project up.  [file-missing]",
      "1 error, 0 warnings in 1 file",
    ],
  ])(
    "reports a missing file as file-missing and exits 1: %j",
    (args, line, count) => {
      const project = createTempProject({
        "plan/playbook-greet.md": greetPlaybook(),
      });

      const result = runCli(["lint", ...args], { cwd: project.dir });

      expect(result.stdout).toBe(`${line}\n${count}\n`);
      expect(result.status).toBe(1);
    },
  );

  it("lints state.md, the active playbook and every plan/playbook-*.md by default, and nothing else in plan/", () => {
    const notAPlaybook = "# notes\n\nnot a playbook at all\n";
    const project = createTempProject({
      "state.md": stateMd(),
      "plan/playbook-greet.md": greetPlaybook(),
      "plan/playbook-alpha.md": greetPlaybook(
        "the output looks properly aligned",
      ),
      "plan/notes.md": notAPlaybook,
      "plan/playbook-draft.txt": notAPlaybook,
      "plan/archive/playbook-old.md": notAPlaybook,
      "plan/template/playbook-format.md": notAPlaybook,
      "docs/playbook-misplaced.md": notAPlaybook,
    });

    const report = lintJson(project.dir);

    expect(report.files).toEqual([
      "state.md",
      "plan/playbook-greet.md",
      "plan/playbook-alpha.md",
    ]);
    expect(report.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual([
      "plan/playbook-alpha.md criterion-vague",
    ]);
  });

  it.each([
    ["an absolute path", (outside: string) => outside],
    ["a path leaving the repository", () => "../outside.md"],
    ["a path leaving plan/ with ..", () => "plan/../../outside.md"],
    ["a path outside plan/", () => "notes/playbook-x.md"],
  ])(
    "reports an active playbook at %s as active-path-unsafe and does not follow it",
    (_name, active) => {
      const project = createTempProject({
        "outside.md": BROKEN_PLAYBOOK,
        "repo/notes/playbook-x.md": BROKEN_PLAYBOOK,
        "repo/plan/playbook-greet.md": greetPlaybook(),
      });
      const value = active(project.path("outside.md"));
      project.write("repo/state.md", stateMd({ active: value }));

      const result = runCli(["lint", "--json"], { cwd: project.path("repo") });

      const report = JSON.parse(result.stdout) as JsonReport;
      expect(report.files).toEqual(["state.md", "plan/playbook-greet.md"]);
      expect(report.diagnostics).toHaveLength(1);
      expect(report.diagnostics[0]).toMatchObject({
        code: "active-path-unsafe",
        severity: "error",
        file: "state.md",
        line: 6,
        column: 9,
      });
      expect(report.diagnostics[0]?.message).toContain(
        `Unexpected \`active: ${value}\``,
      );
      expect(result.status).toBe(1);
    },
  );

  it("reports an active path to a missing file as active-missing", () => {
    const project = createTempProject({
      "state.md": stateMd({ active: "plan/playbook-gone.md" }),
      "plan/playbook-greet.md": greetPlaybook(),
    });

    const result = runCli(["lint"], { cwd: project.dir });

    expect(result.stdout.split("\n")).toContain(
      "state.md:6:9  error  Unexpected `active: plan/playbook-gone.md`: the file does not exist, expected an existing playbook. Write the playbook there (plan/template/playbook-format.md shows the format) or set `active: null`.  [active-missing]",
    );
    expect(result.stdout).not.toContain("plan/playbook-greet.md:");
    expect(result.stdout).not.toContain("[file-missing]");
    expect(result.stdout).toMatch(/^1 error, 0 warnings in 2 files$/m);
    expect(result.status).toBe(1);
  });

  it("reports a branch differing between state.md and the active playbook at the playbook's branch", () => {
    const project = createTempProject({
      "state.md": stateMd({ branch: "feat/other" }),
      "plan/playbook-greet.md": greetPlaybook(),
    });

    const result = runCli(["lint"], { cwd: project.dir });

    expect(result.stdout).toBe(
      "plan/playbook-greet.md:4:9  error  Unexpected branch `feat/greet` in the playbook while state.md says `feat/other`, expected the same branch in both. Set one to match the other.  [branch-mismatch]\n1 error, 0 warnings in 2 files\n",
    );
    expect(result.status).toBe(1);
  });

  it.each([
    ["no config", null, ["properly"]],
    [
      "the default list replaced",
      '{"lint":{"bannedPhrases":["zzz"]}}',
      ["zzz"],
    ],
    ["an empty list", '{"lint":{"bannedPhrases":[]}}', []],
    ["a config without lint", '{"archive":{}}', ["properly"]],
  ])(
    "flags vague wording from .claude/playbook.json: %s",
    (_name, config, phrases) => {
      const project = createTempProject({
        "state.md": stateMd(),
        "plan/playbook-greet.md": greetPlaybook(
          "the zzz banner is aligned properly",
        ),
      });
      if (config !== null) project.write(".claude/playbook.json", config);

      const report = lintJson(project.dir);

      expect(codes(report).every((code) => code === "criterion-vague")).toBe(
        true,
      );
      expect(
        report.diagnostics.map(
          (d) => /vague wording "([^"]+)"/.exec(d.message)?.[1],
        ),
      ).toEqual(phrases);
    },
  );

  it.each([
    [
      "a trailing comma",
      '{\n  "lint": {\n    "bannedPhrases": ["zzz"],\n  }\n}\n',
      4,
      3,
    ],
    [
      "a missing colon",
      '{\n  "lint": {\n    "bannedPhrases" ["zzz"]\n  }\n}\n',
      3,
      21,
    ],
    [
      "an unquoted key",
      '{\n  "lint": {\n    bannedPhrases: ["zzz"]\n  }\n}\n',
      3,
      5,
    ],
    [
      "a trailing comma in a list",
      '{\n  "lint": {\n    "bannedPhrases": ["zzz",]\n  }\n}\n',
      3,
      29,
    ],
    [
      "a bare word value",
      '{\n  "lint": {\n    "bannedPhrases": yes\n  }\n}\n',
      3,
      22,
    ],
    [
      "single quotes",
      "{\n  \"lint\": {\n    'bannedPhrases': []\n  }\n}\n",
      3,
      5,
    ],
  ])(
    "reports a broken .claude/playbook.json (%s) as config-json at its line and keeps the defaults",
    (_name, config, line, column) => {
      const project = createTempProject({
        "state.md": stateMd(),
        "plan/playbook-greet.md": greetPlaybook(
          "the banner is aligned properly",
        ),
        ".claude/playbook.json": config,
      });

      const result = runCli(["lint", "--json"], { cwd: project.dir });

      const report = JSON.parse(result.stdout) as JsonReport;
      expect(report.diagnostics[0]).toMatchObject({
        code: "config-json",
        severity: "error",
        file: ".claude/playbook.json",
        line,
        column,
      });
      expect(codes(report)).toEqual(["config-json", "criterion-vague"]);
      expect(result.status).toBe(1);
    },
  );

  it.each([
    [
      "a BOM before the JSON",
      '\ufeff{"lint":{"bannedPhrases":["zzz"]}}\n',
      ["zzz"],
    ],
    [
      "a BOM and CRLF line endings",
      '\ufeff{\r\n  "lint": {"bannedPhrases": []}\r\n}\r\n',
      [],
    ],
  ])("reads .claude/playbook.json with %s", (_name, config, phrases) => {
    const project = createTempProject({
      "state.md": stateMd(),
      "plan/playbook-greet.md": greetPlaybook(
        "the zzz banner is aligned properly",
      ),
      ".claude/playbook.json": config,
    });

    const report = lintJson(project.dir);

    expect(codes(report).every((code) => code === "criterion-vague")).toBe(
      true,
    );
    expect(
      report.diagnostics.map(
        (d) => /vague wording "([^"]+)"/.exec(d.message)?.[1],
      ),
    ).toEqual(phrases);
  });

  it("reports a .claude/playbook.json that cannot be read as config-json and keeps the defaults", () => {
    const project = createTempProject({
      "state.md": stateMd(),
      "plan/playbook-greet.md": greetPlaybook("the banner is aligned properly"),
      ".claude/playbook.json/.keep": "",
    });

    const result = runCli(["lint"], { cwd: project.dir });

    expect(result.stderr).toBe("");
    expect(result.status).toBe(1);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^\.claude\/playbook\.json:1:1 {2}error {2}Unexpected .*\.claude\/playbook\.json.* cannot be read.*defaults apply.* {2}\[config-json\]$/,
    );
    expect(lines[1]).toMatch(/\[criterion-vague\]$/);
  });

  it("shows control characters quoted from the documents as placeholders, and keeps them in JSON", () => {
    const project = createTempProject({
      "state.md": stateMd({ phase: String.raw`"p7\e]0;pwned\a\e[2J"` }),
      "plan/playbook-greet.md": greetPlaybook(),
    });

    const human = runCli(["lint"], {
      cwd: project.dir,
      env: { FORCE_COLOR: "1" },
    });
    const report = lintJson(project.dir);

    const plain = withoutColors(human.stdout);
    expect(plain).not.toMatch(TERMINAL_CONTROLS);
    expect(plain).toContain(
      "Unexpected `phase: p7\u241b]0;pwned\u2407\u241b[2J` in state.md",
    );
    expect(report.diagnostics[0]?.message).toContain(
      "Unexpected `phase: p7\u001b]0;pwned\u0007\u001b[2J` in state.md",
    );
  });

  it("prints the same output on every run", () => {
    const project = brokenProject();
    project.write("plan/playbook-alpha.md", greetPlaybook("it works well"));
    project.write("plan/playbook-zeta.md", BROKEN_PLAYBOOK);

    const first = runCli(["lint"], { cwd: project.dir });
    const second = runCli(["lint"], { cwd: project.dir });

    expect(first.stdout.split("\n").length).toBeGreaterThan(10);
    expect(second.stdout).toBe(first.stdout);
  });

  it.each([
    [
      "an absolute --cwd from another directory",
      (dir: string) => [tmpdir(), dir],
    ],
    ["a relative --cwd", (dir: string) => [`${dir}/..`, "repo"]],
  ])("lints the project named by %s", (_name, where) => {
    const project = createTempProject({
      "repo/state.md": BROKEN_STATE,
      "repo/plan/playbook-broken.md": BROKEN_PLAYBOOK,
    });
    const [cwd, flag] = where(project.path("repo"));
    const inside = runCli(["lint"], { cwd: project.path("repo") });

    const result = runCli(["lint", "--cwd", flag!], { cwd: cwd! });

    expect(result.stdout).toBe(inside.stdout);
    expect(result.stdout).toContain("5 errors, 1 warning in 2 files");
    expect(result.status).toBe(1);
  });

  it("exits 2 on an unknown command and points to --help", () => {
    const project = cleanProject();

    // citty colours its messages unless it detects a test run or CI; remove those hints as a user's shell would.
    const result = runCli(["frobnicate"], {
      cwd: project.dir,
      env: {
        TEST: undefined,
        NODE_ENV: undefined,
        VITEST: undefined,
        VITEST_WORKER_ID: undefined,
        VITEST_POOL_ID: undefined,
      },
    });

    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("frobnicate");
    expect(result.stderr).toContain("Run `playbook --help`");
    expect(result.stderr).not.toContain("\u001b[");
  });

  it.each([["--bogus"], ["--jsn"], ["-x"], ["--bogus=1"]])(
    "exits 2 on the unknown option %s and names the known ones",
    (flag) => {
      const project = cleanProject();

      const result = runCli(["lint", flag], { cwd: project.dir });

      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(
        `Unknown option ${flag.split("=")[0]} for \`playbook lint\``,
      );
      expect(result.stderr).toContain("--json");
      expect(result.stderr).toContain("Run `playbook lint --help`");
    },
  );

  it.each([
    [
      ["lint", "--help"],
      ["--json", "--cwd", "Check state.md and playbooks"],
    ],
    [
      ["status", "-h"],
      ["--json", "--cwd", "next open subtasks"],
    ],
    [["--help"], ["lint", "status"]],
  ])("prints help for %j without running anything", (args, expected) => {
    const project = createTempProject({});

    const result = runCli(args, { cwd: project.dir, env: { NO_COLOR: "1" } });

    expect(result.status).toBe(0);
    for (const text of expected) expect(result.stdout).toContain(text);
    expect(result.stdout).not.toContain("[file-missing]");
  });

  it.each([
    [["lint", "--json", "--cwd", "."]],
    [["lint", "--cwd=.", "--no-json"]],
    [["status", "--json"]],
  ])("accepts the known options %j", (args) => {
    const project = cleanProject();

    const result = runCli(args, { cwd: project.dir });

    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
  });
});
