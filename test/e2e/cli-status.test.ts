import { describe, expect, it } from "vitest";
import { writeRecord } from "../../src/adapters/record-store.ts";
import type { PlaybookSummary } from "../../src/core/model/summary.ts";
import { summarizeDocument } from "../../src/core/parse/summarize-document.ts";
import type { PlaybookRecord } from "../../src/core/records/record.ts";
import { runCli } from "../helpers/run-cli.ts";
import { stateDoc } from "../helpers/sample-docs.ts";
import { createTempProject } from "../helpers/temp-project.ts";

/** Control characters a terminal acts on (C0 but tab and newline, DEL, C1): none may come from a document. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** `text` without SGR colour codes: ours, the only escape sequences allowed in human output. */
function withoutColors(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching the escape character is the point
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

function stateMd(active: string): string {
  return stateDoc({ active, branch: "feat/report", phase: "p2" });
}

function subtask(
  id: string,
  checked: boolean,
  criterion: string,
  dependsOn: string,
): string {
  return `- [${checked ? "x" : " "}] **${id}**: ${criterion}
  - validations:
    - technical: "automated - npx vitest run test/${id}.test.ts"
    - consistency: "automated - npx tsc --noEmit"
    - completeness: "manual - docs/report.md mentions ${id}"
  - depends_on: [${dependsOn}]`;
}

/**
 * p1 is done; in p2, p2.2 waits on the checked p2.1 and p2.4 on the done phase p1, so both are next, while p2.3
 * waits on the open p2.4; p3 waits on the unfinished p2, so none of its subtasks is next.
 */
const REPORT_PLAYBOOK = `## meta
\`\`\`yaml
project: report
branch: feat/report
created: 2026-11-21
issue: null
reviewed: true
\`\`\`

## goal
\`\`\`yaml
summary: The report command writes report.html
done_when:
  - "npx vitest run test/report.test.ts exits 0"
\`\`\`

## context
Who: the CLI team. What: a report command. Why: users want progress as HTML.

## phases

### p1: Collect
**goal**: \`collect()\` returns every record
**depends_on**: []

#### subtasks
${subtask("p1.1", true, "`collect()` reads records.json", "")}
${subtask("p1.2", true, "`collect()` returns 3 records for the sample", "p1.1")}

**status**: done

---
### p2: Render
**goal**: \`render()\` writes report.html
**depends_on**: [p1]

#### subtasks
${subtask("p2.1", true, "`render()` writes report.html", "")}
${subtask("p2.2", false, "report.html has one row per record", "p2.1")}
${subtask("p2.3", false, "report.html links to the stylesheet", "p2.4")}
${subtask("p2.4", false, "report.css exists", "p1")}

**status**: in_progress

---
### p3: Publish
**goal**: \`publish()\` uploads report.html
**depends_on**: [p2]

#### subtasks
${subtask("p3.1", false, "`publish()` sends report.html", "")}

**status**: pending

## final_tasks
- [x] **ft1**: CHANGELOG.md has a "report" entry
- [ ] **ft2**: README.md shows the report command
`;

const ESC = "\u001b[";

/** The checked subtasks without records, with the commands that prove them as a user can run them. */
const UNPROVEN_PROBLEM =
  "p1.1, p1.2, p2.1 are checked without current proof: run `playbook verify p1`, `playbook verify p2.1`; a person runs `playbook confirm p1.1`, `playbook confirm p1.2`, `playbook confirm p2.1` in a terminal for the manual checks";

/** The report project, its plan approved by the reviewer (the ticks and the done phase have no records). */
function reportProject(text = REPORT_PLAYBOOK) {
  const project = createTempProject({
    "state.md": stateMd("plan/playbook-report.md"),
    "plan/playbook-report.md": text,
  });
  const summary = summarizeDocument(
    "playbook",
    text,
    "plan/playbook-report.md",
  ) as PlaybookSummary;
  writeRecord(project.dir, {
    kind: "review",
    playbook: "plan/playbook-report.md",
    target: "playbook",
    verdict: "approve",
    by: "reviewer",
    contentHash: summary.hashes.review,
    at: "2026-11-23T07:00:00.000Z",
    detail: {},
  });
  return project;
}

describe("playbook status", () => {
  it("shows the active playbook, its phases with progress, the next subtasks, and the claims no record backs as problems", () => {
    const project = reportProject();

    const result = runCli(["status"], { cwd: project.dir });

    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(
      "playbook  plan/playbook-report.md  (feat/report)  reviewed",
    );
    expect(lines).toContain("goal      The report command writes report.html");
    expect(lines).toContain("phase     p2");
    expect(lines).toContain(
      `p1  Collect  ${"█".repeat(20)}      2/2  done  no critic PASS`,
    );
    expect(lines).toContain(
      `p2  Render   ${"█".repeat(5)}${"░".repeat(15)}      1/4  in_progress`,
    );
    expect(lines).toContain(`p3  Publish  ${"░".repeat(20)}      0/1  pending`);
    expect(lines).toContain(
      `final tasks  ${"█".repeat(10)}${"░".repeat(10)}      1/2`,
    );
    const next = lines.slice(
      lines.findIndex((l) => l.startsWith("next ")),
      lines.indexOf(
        "",
        lines.findIndex((l) => l.startsWith("next ")),
      ),
    );
    expect(next).toEqual([
      "next      p2.2 (report.html has one row per record): do the work, then run `playbook verify p2.2` to record the evidence.",
      "open",
      "  p2.2  report.html has one row per record",
      "  p2.4  report.css exists",
    ]);
    expect(lines.slice(lines.indexOf("2 problems"))).toEqual([
      "2 problems",
      `  ${UNPROVEN_PROBLEM}`,
      "  p1 is done without the critic's PASS: run /crit p1",
      "",
    ]);
    expect(result.stdout).not.toContain("no problems found");
  });

  it("says the critic's review is next once a phase's boxes are all ticked, as the Stop hook does", () => {
    const project = reportProject(
      REPORT_PLAYBOOK.replace("- [ ] **p2.2**", "- [x] **p2.2**")
        .replace("- [ ] **p2.3**", "- [x] **p2.3**")
        .replace("- [ ] **p2.4**", "- [x] **p2.4**"),
    );

    const result = runCli(["status"], { cwd: project.dir });
    const json = JSON.parse(
      runCli(["status", "--json"], { cwd: project.dir }).stdout,
    ) as { step: { kind: string; phase: string } };

    const lines = result.stdout.split("\n");
    expect(lines).toContain(
      "next      every subtask of p2 is checked: run /crit p2 so the critic verifies the phase.",
    );
    expect(lines).not.toContain("open");
    expect(json.step).toMatchObject({ kind: "critic", phase: "p2" });
  });

  it("names the commands that prove unproven ticks with real ids, never a placeholder", () => {
    const project = reportProject();

    const result = runCli(["status"], { cwd: project.dir });

    expect(result.stdout).not.toMatch(/<[a-z]+>/);
    const problem = result.stdout
      .split("\n")
      .find((l) => l.includes("checked without current proof"));
    const commands = [...(problem ?? "").matchAll(/`(playbook [^`]+)`/g)].map(
      (m) => m[1],
    );
    expect(commands).toEqual([
      "playbook verify p1",
      "playbook verify p2.1",
      "playbook confirm p1.1",
      "playbook confirm p1.2",
      "playbook confirm p2.1",
    ]);
    // Each names a phase or subtask the playbook has, as `verify` and `confirm` take them.
    for (const command of commands) {
      const id = command!.split(" ")[2]!;
      expect(REPORT_PLAYBOOK).toMatch(
        new RegExp(`(\\*\\*${id.replace(".", "\\.")}\\*\\*|### ${id}:)`),
      );
    }
  });

  it("shows the records behind the claims: the review, the critic, proven subtasks ready to tick", () => {
    const project = reportProject();
    const summary = summarizeDocument(
      "playbook",
      REPORT_PLAYBOOK,
      "plan/playbook-report.md",
    ) as PlaybookSummary;
    const record = (
      r: Omit<PlaybookRecord, "at" | "by" | "contentHash" | "detail">,
      contentHash: string,
    ) =>
      writeRecord(project.dir, {
        ...r,
        by: "test",
        contentHash,
        at: "2026-11-23T08:00:00.000Z",
        detail: {},
      });
    record(
      {
        kind: "review",
        playbook: "plan/playbook-report.md",
        target: "playbook",
        verdict: "approve",
      },
      summary.hashes.review,
    );
    record(
      {
        kind: "critic",
        playbook: "plan/playbook-report.md",
        target: "p1",
        verdict: "PASS",
      },
      summary.hashes.phases["p1"]!,
    );
    for (const id of ["p1.1", "p1.2", "p2.1", "p2.2"]) {
      for (const validation of ["technical", "consistency"] as const)
        record(
          {
            kind: "evidence",
            playbook: "plan/playbook-report.md",
            target: id,
            validation,
            verdict: "PASS",
          },
          summary.hashes.subtasks[id]!,
        );
      record(
        {
          kind: "confirmation",
          playbook: "plan/playbook-report.md",
          target: id,
          verdict: "PASS",
        },
        summary.hashes.subtasks[id]!,
      );
    }

    const result = runCli(["status"], { cwd: project.dir });
    const json = JSON.parse(
      runCli(["status", "--json"], { cwd: project.dir }).stdout,
    ) as {
      review: string;
      phases: { critic: string }[];
      next: { proven: boolean }[];
    };

    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(
      "playbook  plan/playbook-report.md  (feat/report)  reviewed",
    );
    expect(lines).toContain(
      `p1  Collect  ${"█".repeat(20)}      2/2  done  critic PASS`,
    );
    expect(lines).toContain(
      "  p2.2  report.html has one row per record  (proven: tick it)",
    );
    expect(result.stdout).not.toMatch(/^\d+ problems?$/m);
    expect(result.stdout).toContain("no problems found");
    expect(json.review).toBe("approved");
    expect(json.phases.map((p) => p.critic)).toEqual(["PASS", "none", "none"]);
    expect(json.next.map((n) => n.proven)).toEqual([true, false]);
  });

  it("shows the post-loop lock and an unfinished archive with their next steps", () => {
    const project = reportProject();
    project.write(
      ".claude/playbook/post-loop.json",
      JSON.stringify({
        status: "success",
        playbook: "plan/archive/playbook-old.md",
        pr: "https://github.com/acme/app/pull/7",
        at: "2026-11-23T08:00:00.000Z",
        session: "s1",
      }),
    );
    project.write(
      ".claude/playbook/archive-journal.json",
      JSON.stringify({
        status: "partial",
        branch: "feat/report",
        playbook: "plan/playbook-report.md",
      }),
    );

    const lines = runCli(["status"], { cwd: project.dir }).stdout.split("\n");

    expect(lines).toContain(
      "lock      post-loop lock: plan/archive/playbook-old.md was archived (https://github.com/acme/app/pull/7), status success. Next: `playbook post-loop`",
    );
    expect(lines).toContain(
      "archive   unfinished: plan/playbook-report.md on feat/report. Next: `playbook archive --resume`",
    );
  });

  it("says whether the active playbook is reviewed", () => {
    const project = reportProject();
    project.write(
      "plan/playbook-report.md",
      REPORT_PLAYBOOK.replace("reviewed: true", "reviewed: false"),
    );

    const result = runCli(["status"], { cwd: project.dir });

    expect(result.stdout.split("\n")[0]).toBe(
      "playbook  plan/playbook-report.md  (feat/report)  not reviewed",
    );
  });

  it("lists the problems lint finds under diagnostics", () => {
    const project = reportProject();
    project.write(
      "plan/playbook-report.md",
      REPORT_PLAYBOOK.replace(
        "report.css exists",
        "report.css looks good enough",
      ),
    );

    const result = runCli(["status"], { cwd: project.dir });

    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.at(-2)).toBe("diagnostics");
    expect(lines.at(-1)).toMatch(
      /^ {2}plan\/playbook-report\.md:\d+:1 {2}error {2}Unexpected vague wording "good enough" in the criterion of p2\.4, .+ {2}\[criterion-vague\]$/,
    );
    expect(result.stdout).not.toContain("no problems found");
  });

  it.each([
    [
      "state.md says active: null",
      { "state.md": stateMd("null") },
      "Start one: in Claude Code, /playbook-init followed by what you want done; in a terminal, `playbook new <name>`.",
    ],
    [
      "there is no state.md",
      {},
      "This project is not set up for playbook (no state.md). Run `playbook init`.",
    ],
  ])(
    "says no playbook is active when %s, and how to start one",
    (_name, files, next) => {
      const project = createTempProject({
        ...files,
        "plan/playbook-report.md": REPORT_PLAYBOOK,
      });

      const result = runCli(["status"], { cwd: project.dir });

      const lines = result.stdout.split("\n");
      expect(lines[0]).toBe("playbook  none active");
      expect(lines[1]).toBe(next);
      expect(lines).not.toContain("next");
      expect(result.stdout).not.toContain("p2.2");
    },
  );

  it.each([
    ["unsafe", "../../etc/passwd.md", "active-path-unsafe"],
    ["missing", "plan/playbook-gone.md", "active-missing"],
  ])(
    "does not present an %s active path as the active playbook",
    (_name, active, code) => {
      const project = createTempProject({
        "state.md": stateMd(active),
        "plan/playbook-report.md": REPORT_PLAYBOOK,
      });

      const result = runCli(["status"], { cwd: project.dir });
      const json = JSON.parse(
        runCli(["status", "--json"], { cwd: project.dir }).stdout,
      ) as {
        active: string | null;
        unreadableActive: string | null;
      };

      const lines = result.stdout.split("\n");
      expect(lines[0]).toBe(
        `playbook  cannot read ${active} (see diagnostics)`,
      );
      expect(lines).not.toContain("next");
      expect(result.stdout).toContain(`[${code}]`);
      expect(json).toMatchObject({ active: null, unreadableActive: active });
    },
  );

  it("prints the StatusReport as JSON with --json", () => {
    const project = reportProject();

    const result = runCli(["status", "--json"], { cwd: project.dir });

    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      initialised: true,
      active: "plan/playbook-report.md",
      unreadableActive: null,
      branch: "feat/report",
      reviewed: true,
      review: "approved",
      summary: "The report command writes report.html",
      currentPhase: "p2",
      phases: [
        {
          id: "p1",
          name: "Collect",
          status: "done",
          done: 2,
          total: 2,
          critic: "none",
          unproven: ["p1.1", "p1.2"],
        },
        {
          id: "p2",
          name: "Render",
          status: "in_progress",
          done: 1,
          total: 4,
          critic: "none",
          unproven: ["p2.1"],
        },
        {
          id: "p3",
          name: "Publish",
          status: "pending",
          done: 0,
          total: 1,
          critic: "none",
          unproven: [],
        },
      ],
      step: {
        kind: "implement",
        phase: "p2",
        subtask: "p2.2",
        text: "p2.2 (report.html has one row per record): do the work, then run `playbook verify p2.2` to record the evidence.",
      },
      next: [
        {
          id: "p2.2",
          phase: "p2",
          criterion: "report.html has one row per record",
          proven: false,
        },
        {
          id: "p2.4",
          phase: "p2",
          criterion: "report.css exists",
          proven: false,
        },
      ],
      finalTasks: { done: 1, total: 2 },
      lock: null,
      unfinishedArchive: null,
      gate: null,
      problems: [
        UNPROVEN_PROBLEM,
        "p1 is done without the critic's PASS: run /crit p1",
      ],
      diagnostics: [],
    });
  });

  it("reports nulls and empty lists as JSON when no playbook is active", () => {
    const project = createTempProject({ "state.md": stateMd("null") });

    const result = runCli(["status", "--json"], { cwd: project.dir });

    expect(JSON.parse(result.stdout)).toEqual({
      initialised: true,
      active: null,
      unreadableActive: null,
      branch: "feat/report",
      reviewed: null,
      review: null,
      summary: null,
      currentPhase: "p2",
      phases: [],
      step: null,
      next: [],
      finalTasks: { done: 0, total: 0 },
      lock: null,
      unfinishedArchive: null,
      gate: null,
      problems: [],
      diagnostics: [],
    });
  });

  it.each([
    ["no colour variable", {}, false],
    ["NO_COLOR=1", { NO_COLOR: "1" }, false],
    ["FORCE_COLOR=1", { FORCE_COLOR: "1" }, true],
    ["FORCE_COLOR=0", { FORCE_COLOR: "0" }, false],
    ["FORCE_COLOR=false", { FORCE_COLOR: "false" }, false],
    [
      "NO_COLOR=1 and FORCE_COLOR=1",
      { NO_COLOR: "1", FORCE_COLOR: "1" },
      false,
    ],
  ])("colours the output or not with %s", (_name, env, coloured) => {
    const project = reportProject();

    const result = runCli(["status"], { cwd: project.dir, env });

    expect(result.stdout.includes(ESC)).toBe(coloured);
    expect(result.stdout).toContain("p2.2");
  });

  it.each([
    ["no colour", {}],
    ["colour", { FORCE_COLOR: "1" }],
  ])(
    "shows control characters from the documents as placeholders with %s, and keeps them in JSON",
    (_name, env) => {
      const project = reportProject(
        REPORT_PLAYBOOK.replace(
          "summary: The report command writes report.html",
          String.raw`summary: "Sets the title \e]0;pwned\a here"`,
        )
          .replace("### p2: Render", "### p2: Ren\u001b[31mder\u0085")
          .replace(
            "report.css exists",
            "report.css \u001b[2J\u001b]8;;http://x\u0007exists\u0008\u007f ok",
          ),
      );

      const result = runCli(["status"], { cwd: project.dir, env });
      const json = JSON.parse(
        runCli(["status", "--json"], { cwd: project.dir, env }).stdout,
      ) as {
        summary: string;
        phases: { name: string }[];
        next: { criterion: string }[];
      };

      expect(result.status).toBe(0);
      // Only our own colour codes may reach the terminal.
      const plain = withoutColors(result.stdout);
      expect(plain).not.toMatch(TERMINAL_CONTROLS);
      expect(plain).toContain(
        "goal      Sets the title \u241b]0;pwned\u2407 here",
      );
      expect(plain).toContain("p2  Ren\u241b[31mder\ufffd");
      expect(plain).toContain(
        "  p2.4  report.css \u241b[2J\u241b]8;;http://x\u2407exists\u2408\u2421 ok",
      );
      expect(json.summary).toBe("Sets the title \u001b]0;pwned\u0007 here");
      expect(json.phases[1]?.name).toBe("Ren\u001b[31mder\u0085");
      expect(json.next[1]?.criterion).toBe(
        "report.css \u001b[2J\u001b]8;;http://x\u0007exists\u0008\u007f ok",
      );
    },
  );
});
