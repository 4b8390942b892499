import { execFileSync } from "node:child_process";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writeGrant } from "../../src/adapters/grant-store.ts";
import { summarizePlaybook } from "../../src/core/cache/summary.ts";
import { parsePlaybook } from "../../src/core/parse/parse-playbook.ts";
import {
  phaseHash,
  reviewHash,
  subtaskHash,
} from "../../src/core/records/content-hash.ts";
import type { PlaybookRecord } from "../../src/core/records/record.ts";
import { approveInTest } from "../helpers/guarded-repo.ts";
import { CLI_BUNDLE, childEnv, runCli } from "../helpers/run-cli.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";
const RECORDS = ".claude/playbook/records/plan__playbook-login-form.md";
const GRANTS = ".claude/playbook/grants";

/** Not a person in Claude Code's shell: the commands must judge only what these tests set up. */
const ENV = { CLAUDECODE: undefined };

interface JsonError {
  error: {
    code: string;
    message: string;
    hint: string;
    location?: { file: string; line?: number; column?: number };
  };
}

function project(playbook = SAMPLE_PLAYBOOK): TempProject {
  return createTempProject({ "state.md": SAMPLE_STATE, [PLAYBOOK]: playbook });
}

function cli(p: TempProject, args: string[]) {
  return runCli(args, { cwd: p.dir, env: ENV });
}

function summaryOf(p: TempProject) {
  const parsed = parsePlaybook(p.read(PLAYBOOK), PLAYBOOK);
  return summarizePlaybook(parsed.value, parsed.diagnostics);
}

function recordAt(p: TempProject, name: string): PlaybookRecord {
  return JSON.parse(p.read(`${RECORDS}/${name}`)) as PlaybookRecord;
}

function recordFiles(p: TempProject): string[] {
  return existsSync(p.path(RECORDS)) ? readdirSync(p.path(RECORDS)).sort() : [];
}

function grant(p: TempProject, kind: "review" | "crit", agentType: string) {
  writeGrant(p.dir, {
    kind,
    agentType,
    sessionId: "session-1",
    command:
      kind === "review"
        ? "playbook review approve"
        : "playbook crit record p1 PASS",
    at: new Date().toISOString(),
  });
}

describe("playbook review", () => {
  it("refuses without a terminal or a grant, and records nothing", () => {
    const p = project();

    const result = cli(p, ["review", "approve"]);

    expect(result.status).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe(
      "error `playbook review` records the reviewer's verdict: run it from the reviewer subagent or yourself in a terminal.",
    );
    expect(p.read(PLAYBOOK)).toBe(SAMPLE_PLAYBOOK);
    expect(existsSync(p.path(".claude/playbook/records"))).toBe(false);
    const json = JSON.parse(
      cli(p, ["review", "reject", "--json"]).stdout,
    ) as JsonError;
    expect(json.error.code).toBe("E_DENIED");
  });

  it("approves with the reviewer's grant: records the plan's hash and sets reviewed: true", () => {
    const p = project();
    grant(p, "review", "reviewer");

    const result = cli(p, [
      "review",
      "approve",
      "--notes",
      "covers the error states",
      "--json",
    ]);

    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout) as {
      reviewed: boolean;
      changed: boolean;
      record: PlaybookRecord;
    };
    expect(out).toMatchObject({ reviewed: true, changed: true });
    expect(p.read(PLAYBOOK)).toBe(
      SAMPLE_PLAYBOOK.replace("reviewed: false", "reviewed: true"),
    );
    const record = recordAt(p, "review.playbook.json");
    expect(record).toEqual(out.record);
    expect(record).toMatchObject({
      kind: "review",
      playbook: PLAYBOOK,
      target: "playbook",
      verdict: "approve",
      by: "reviewer",
      contentHash: reviewHash(summaryOf(p)),
      detail: { notes: "covers the error states", sessionId: "session-1" },
    });
    expect(readdirSync(p.path(GRANTS))).toEqual([]);
    expect(
      p.read(".claude/playbook/records/history.jsonl").trimEnd().split("\n"),
    ).toHaveLength(1);

    // The grant was used up: the next call is refused.
    expect(cli(p, ["review", "reject"]).status).toBe(1);
  });

  it("rejects with a grant and sets reviewed: false", () => {
    const p = project(
      SAMPLE_PLAYBOOK.replace("reviewed: false", "reviewed: true"),
    );
    grant(p, "review", "plugin:reviewer");

    const result = cli(p, ["review", "reject"]);

    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`rejected ${PLAYBOOK}`);
    expect(p.read(PLAYBOOK)).toBe(SAMPLE_PLAYBOOK);
    expect(recordAt(p, "review.playbook.json")).toMatchObject({
      verdict: "reject",
      by: "plugin:reviewer",
    });
  });

  it("refuses to approve a playbook with lint errors and lists them", () => {
    const vague = SAMPLE_PLAYBOOK.replace(
      "exports `LoginForm`",
      "works properly",
    );
    const p = project(vague);
    grant(p, "review", "reviewer");

    const result = cli(p, ["review", "approve"]);

    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`${PLAYBOOK}:`);
    expect(result.stderr).toMatch(
      /has \d+ lint errors?, so it cannot be approved; nothing was recorded/,
    );
    expect(p.read(PLAYBOOK)).toBe(vague);
    expect(recordFiles(p)).toEqual([]);
  });

  it("refuses to approve a playbook without ## context, with the diagnostics in --json", () => {
    const p = project(
      SAMPLE_PLAYBOOK.replace(
        "Who: the web team. What: a login form. Why: users cannot sign in yet.\n",
        "",
      ),
    );
    grant(p, "review", "reviewer");

    const result = cli(p, ["review", "approve", "--json"]);

    expect(result.status).toBe(1);
    const json = JSON.parse(result.stdout) as JsonError & {
      diagnostics: {
        code: string;
        file: string;
        line: number;
        column: number;
      }[];
    };
    expect(json.error.code).toBe("E_CONFIG");
    expect(json.diagnostics.map((d) => d.code)).toEqual(["context-missing"]);
    // The error points where the first diagnostic does.
    const [first] = json.diagnostics;
    expect(json.error.location).toEqual({
      file: first?.file,
      line: first?.line,
      column: first?.column,
    });
    expect(recordFiles(p)).toEqual([]);
  });

  it("exits 2 for a verdict other than approve or reject", () => {
    const result = cli(project(), ["review", "maybe"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      "Unexpected verdict maybe, expected approve or reject.",
    );
  });
});

describe("playbook crit record", () => {
  it("records the critic's verdict with the phase's hash", () => {
    const p = project();
    grant(p, "crit", "critic");

    const result = cli(p, [
      "crit",
      "record",
      "p1",
      "FAIL",
      "--evidence",
      "p1.1 is unchecked",
    ]);

    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(recordAt(p, "critic.p1.json")).toMatchObject({
      kind: "critic",
      target: "p1",
      verdict: "FAIL",
      by: "critic",
      contentHash: phaseHash(summaryOf(p), "p1"),
      detail: { evidence: "p1.1 is unchecked" },
    });
  });

  it("refuses without a grant, and names the phases for an unknown one", () => {
    const p = project();
    expect(cli(p, ["crit", "record", "p1", "PASS"]).stderr).toContain(
      "`playbook crit record` records the critic's verdict",
    );
    grant(p, "crit", "critic");
    const unknown = cli(p, ["crit", "record", "p9", "PASS"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain(
      `No phase \`p9\` in ${PLAYBOOK} (its phases: p1, p2).`,
    );
    expect(recordFiles(p)).toEqual([]);
  });
});

const VERIFY_PLAYBOOK = SAMPLE_PLAYBOOK.replace(
  `    - technical: "automated - npx vitest run test/login-form.test.ts"
    - consistency: 'automated - npx tsc --noEmit'`,
  `    - technical: 'automated - node -e "process.exit(0)"'
    - consistency: 'automated - node -e "console.error(1234); process.exit(3)"'`,
);

describe("playbook verify", () => {
  it("records nothing while git cannot read the tree of a repository (a garbled .git/HEAD), and says what git said", () => {
    const p = project(VERIFY_PLAYBOOK);
    approveInTest(p.dir, PLAYBOOK);
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: p.dir, stdio: "ignore" });
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "i");
    p.write(".git/HEAD", "garbage\n");

    const result = cli(p, ["verify", "p1.1"]);

    expect(result.status).toBe(1);
    expect(result.stderr).toContain("git could not read the working tree");
    expect(result.stderr).toContain("not a git repository");
    expect(result.stderr).toContain("`git status`");
    expect(recordFiles(p).filter((f) => !f.startsWith("review"))).toEqual([]);
    expect(p.read(PLAYBOOK)).toBe(VERIFY_PLAYBOOK);
  });

  it("runs the automated validations, records evidence and writes PASS/FAIL into the playbook", () => {
    const p = project(VERIFY_PLAYBOOK);
    approveInTest(p.dir, PLAYBOOK);
    expect(p.read(PLAYBOOK)).not.toBe(SAMPLE_PLAYBOOK);

    const result = cli(p, ["verify", "p1.1"]);

    expect(result.status).toBe(1);
    const lines = result.stdout.split("\n");
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^✓ p1\.1 technical +PASS +\d\S* {2}node -e "process.exit\(0\)" {2}exit 0$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^✗ p1\.1 consistency +FAIL +\d\S* {2}node -e .* {2}exit 3$/,
      ),
    );
    expect(result.stdout).toContain("1234");
    expect(result.stdout).toContain(
      "the user runs `playbook confirm p1.1` in a terminal",
    );

    const hash = subtaskHash(summaryOf(p), "p1.1");
    expect(recordAt(p, "evidence.p1.1.technical.json")).toMatchObject({
      kind: "evidence",
      target: "p1.1",
      validation: "technical",
      verdict: "PASS",
      by: "playbook-verify",
      contentHash: hash,
      detail: {
        command: 'node -e "process.exit(0)"',
        exitCode: 0,
        signal: null,
        timedOut: false,
      },
    });
    const failed = recordAt(p, "evidence.p1.1.consistency.json");
    expect(failed).toMatchObject({
      verdict: "FAIL",
      detail: { exitCode: 3, outputTail: ["1234"] },
    });
    expect(failed.detail["outputDigest"]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(p.read(PLAYBOOK)).toBe(
      VERIFY_PLAYBOOK.replace(
        `'automated - node -e "process.exit(0)"'`,
        `'PASS - automated - node -e "process.exit(0)"'`,
      ).replace(
        `'automated - node -e "console.error(1234); process.exit(3)"'`,
        `'FAIL - automated - node -e "console.error(1234); process.exit(3)"'`,
      ),
    );
  });

  it("honours --timeout and reports the command as timed out", () => {
    const p = project(
      SAMPLE_PLAYBOOK.replace(
        `"automated - npx vitest run test/login-form.test.ts"`,
        `'automated - node -e "setTimeout(()=>{},10000)"'`,
      ).replace(
        `'automated - npx tsc --noEmit'`,
        `"manual - the types read well"`,
      ),
    );
    approveInTest(p.dir, PLAYBOOK);
    const result = cli(p, ["verify", "p1.1", "--timeout", "1", "--json"]);

    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      results: { verdict: string; run: { timedOut: boolean } }[];
    };
    expect(report.ok).toBe(false);
    expect(report.results.map((r) => [r.verdict, r.run.timedOut])).toEqual([
      ["FAIL", true],
    ]);
    expect(recordAt(p, "evidence.p1.1.technical.json").detail).toMatchObject({
      timedOut: true,
      exitCode: null,
    });
  });

  it.each([
    [
      ["verify", "p9.9"],
      1,
      "No subtask `p9.9` in plan/playbook-login-form.md (its subtasks: p1.1, p1.2, p2.1).",
    ],
    [["verify"], 2, "Missing the subtask id"],
    [["verify", "p1.1", "--timeout", "soon"], 2, "Unexpected --timeout soon"],
  ])("%j exits %i: %s", (args, status, message) => {
    const result = cli(project(), args);
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(message);
  });

  it("names state.md when it is missing", () => {
    const p = createTempProject({ [PLAYBOOK]: SAMPLE_PLAYBOOK });
    const result = cli(p, ["verify", "p1.1"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`No state.md in ${p.dir}.`);
    expect(result.stderr).toContain("--playbook");
  });

  it("names the broken YAML of a playbook", () => {
    const p = project(
      SAMPLE_PLAYBOOK.replace("issue: null", "issue: [unclosed"),
    );
    const result = cli(p, ["verify", "p1.1"]);
    expect(result.status).toBe(1);
    // The first line starts as `playbook lint` prints the problem: file, line and column.
    expect(result.stderr).toMatch(
      /^plan\/playbook-login-form\.md:\d+:\d+ {2}error {2}\S/,
    );
    expect(result.stderr).toContain("Fix the YAML");
  });
});

/** A person runs `playbook confirm <id>` and types the id: `script` (util-linux) gives the CLI a real terminal. */
function confirmInTerminal(p: TempProject, id: string) {
  const command = `'${process.execPath}' '${CLI_BUNDLE}' confirm ${id} --cwd '${p.dir}'`;
  return spawnSync("script", ["-qec", command, "/dev/null"], {
    input: `${id}\n`,
    env: childEnv({ ...ENV, NO_COLOR: "1" }),
    encoding: "utf8",
    timeout: 20_000,
  });
}

describe("playbook confirm", () => {
  it("refuses without a terminal", () => {
    const p = project();

    const result = cli(p, ["confirm", "p1.1"]);

    expect(result.status).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe(
      "error `playbook confirm` is for a person: run it yourself in a terminal.",
    );
    expect(existsSync(p.path(".claude/playbook/records"))).toBe(false);
  });

  it("records a person's confirmation typed in a real terminal", () => {
    const p = project();

    const result = confirmInTerminal(p, "p1.1");

    expect(result.stdout).toContain("Type the subtask id to confirm");
    expect(result.stdout).toContain("confirmed p1.1");
    expect(result.status).toBe(0);
    expect(recordAt(p, "confirmation.p1.1.json")).toMatchObject({
      kind: "confirmation",
      verdict: "PASS",
      by: "user",
      contentHash: subtaskHash(summaryOf(p), "p1.1"),
      detail: { validations: ["completeness"] },
    });
    expect(p.read(PLAYBOOK)).toBe(
      SAMPLE_PLAYBOOK.replace(
        "completeness: manual - the error states",
        "completeness: PASS - manual - the error states",
      ),
    );
  });

  it("after the confirmation, verify no longer asks for it: the subtask is proven", () => {
    const p = project(
      SAMPLE_PLAYBOOK.replace(
        `    - technical: "automated - npx vitest run test/login-form.test.ts"
    - consistency: 'automated - npx tsc --noEmit'`,
        `    - technical: 'automated - node -e "process.exit(0)"'
    - consistency: 'automated - node -e "process.exit(0)"'`,
      ),
    );
    approveInTest(p.dir, PLAYBOOK);
    expect(confirmInTerminal(p, "p1.1").status).toBe(0);

    const result = cli(p, ["verify", "p1.1"]);

    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain("playbook confirm p1.1");
    expect(result.stdout).toContain("Every validation of p1.1 is proven");
  });
});
