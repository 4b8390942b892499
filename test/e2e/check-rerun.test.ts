import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requireSandboxTools } from "../helpers/required-tools.ts";
import { runCli } from "../helpers/run-cli.ts";
import { approveInTest } from "../helpers/guarded-repo.ts";
import { readRecords } from "../../src/adapters/record-store.ts";
import { renderPullRequest } from "../../src/core/archive/pull-request-text.ts";
import type { PlaybookSummary } from "../../src/core/model/summary.ts";
import { summarizeDocument } from "../../src/core/parse/summarize-document.ts";
import { createRecordSet } from "../../src/core/records/record-set.ts";
import {
  recordFileName,
  recordFolderName,
  RECORDS_DIR,
} from "../../src/core/records/record-path.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-rerun.md";

function playbook(technical: string, checked = false): string {
  return `# playbook-rerun

## meta
\`\`\`yaml
project: rerun
reviewed: false
branch: feat/rerun
\`\`\`

## goal
\`\`\`yaml
summary: Evidence holds up when run again.
done_when:
  - the rerun agrees
\`\`\`

## context
Who: CI. What: a rerun.

## phases

### p1: Rerun
**status**: in_progress

- [${checked ? "x" : " "}] **p1.1**: the app exists
  - executor: claudecode
  - validations:
    - technical: ${JSON.stringify(`automated - ${technical}`)}
    - consistency: "automated - test -f src/app.ts"
    - completeness: "automated - true"

## final_tasks
- [ ] **ft1**: clean up
`;
}

const STATE = readFileSync(
  new URL("../../plan/template/state-initial.md", import.meta.url),
  "utf8",
)
  .replace("active: null", `active: ${PLAYBOOK}`)
  .replace("branch: null", "branch: feat/rerun");

interface Repo extends TempProject {
  git(...args: string[]): string;
  commit(message: string): void;
  records(): string[];
}

/** A repository whose p1.1 was verified (for real, in the sandbox where one runs), ticked and committed. */
function verifiedRepo(technical = "cat flags/ok"): Repo {
  requireSandboxTools();
  const p = createTempProject({
    "state.md": STATE,
    [PLAYBOOK]: playbook(technical),
    "src/app.ts": "export const app = 1;\n",
    "flags/ok": "ok\n",
    ".gitignore":
      ".claude/playbook/*\n!.claude/playbook/records/\n.claude/playbook/records/history.jsonl\nflags/\n",
    ".claude/playbook.json": `${JSON.stringify({ security: "strict" })}\n`,
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: p.dir,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@e.x",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@e.x",
      },
    });
  approveInTest(p.dir, PLAYBOOK);
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  git("switch", "-q", "-c", "feat/rerun");
  const verified = runCli(["verify", "p1.1", "--cwd", p.dir]);
  expect(verified.status, verified.stdout + verified.stderr).toBe(0);
  p.write(
    PLAYBOOK,
    p.read(PLAYBOOK).replace("- [ ] **p1.1**", "- [x] **p1.1**"),
  );
  const repo: Repo = {
    ...p,
    git,
    commit: (message) => {
      git("add", "-A");
      git("commit", "-q", "-m", message);
    },
    records: () => readdirSync(p.path(".claude/playbook/records")).sort(),
  };
  repo.commit("work, verified");
  return repo;
}

function rerun(repo: Repo, ...args: string[]) {
  return runCli(["check", "--rerun", "--cwd", repo.dir, ...args]);
}

describe("playbook check --rerun", () => {
  it("runs the checked subtask's validations again, agrees with the evidence and writes no record", () => {
    const repo = verifiedRepo();
    const records = repo.records();

    const result = rerun(repo);

    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /✓ p1\.1 technical\s+evidence PASS {2}rerun PASS/,
    );
    expect(result.stdout).toContain(
      "rerun: 3 validations agree with their evidence",
    );
    expect(repo.records()).toEqual(records);
    expect(repo.git("status", "--porcelain")).toBe("");
  });

  it("fails when a validation that passed at verify fails now", () => {
    const repo = verifiedRepo();
    // Ignored, so the tree is the same: only the rerun can tell.
    rmSync(repo.path("flags/ok"));

    const result = rerun(repo);

    expect(result.status).toBe(1);
    expect(result.stdout).toContain("the evidence says PASS, the rerun FAILs");
    // The next step is a command the user can run as printed.
    expect(result.stdout).toContain(
      "run `npx --no playbook verify p1.1`, and commit the records.",
    );
  });

  it("fails when the code changed since verify, even if the validations still pass", () => {
    const repo = verifiedRepo();
    repo.write("src/app.ts", "export const app = 2;\n");
    repo.commit("more work");

    const result = rerun(repo);

    expect(result.status).toBe(1);
    expect(result.stdout).toContain("the code changed since verify");
  });

  it("fails for a checked subtask without evidence", () => {
    const repo = verifiedRepo();
    rmSync(repo.path(".claude/playbook/records"), {
      recursive: true,
      force: true,
    });

    const result = rerun(repo, "--json");

    expect(result.status).toBe(1);
    const json = JSON.parse(result.stdout) as {
      rerun: { ok: boolean; rows: { problem: string | null }[] };
    };
    expect(json.rerun.ok).toBe(false);
    expect(json.rerun.rows.map((r) => r.problem)).toEqual([
      "no evidence",
      "no evidence",
      "no evidence",
    ]);
  });

  it("with --base, covers the playbooks the branch changed, also once archived", () => {
    const repo = verifiedRepo();
    mkdirSync(repo.path("plan/archive"));
    repo.git("mv", PLAYBOOK, "plan/archive/playbook-rerun.md");
    repo.write(
      "state.md",
      STATE.replace(`active: ${PLAYBOOK}`, "active: null"),
    );
    repo.commit("chore: archive");

    const result = rerun(repo, "--base", "main", "--json");

    expect(result.status, result.stdout + result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as {
      rerun: { playbooks: string[]; rows: unknown[] };
    };
    expect(json.rerun.playbooks).toEqual(["plan/archive/playbook-rerun.md"]);
    expect(json.rerun.rows).toHaveLength(3);
  });
});

describe("check --rerun's job summary in GitHub Actions", () => {
  /** A step summary file as the runner makes it: outside the project, holding what earlier commands of the step wrote. */
  function stepSummary(): string {
    const path = join(
      mkdtempSync(join(tmpdir(), "runner-temp-")),
      "step_summary_1",
    );
    writeFileSync(path, "earlier output of this step\n");
    return path;
  }

  const inActions = (repo: Repo, summary: string) =>
    runCli(["check", "--rerun", "--cwd", repo.dir], {
      env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary },
    });

  /** p1.1's evidence for `validation`, as verify recorded it. */
  function evidenceOf(repo: Repo, validation: "technical" | "consistency") {
    return JSON.parse(
      repo.read(
        `${RECORDS_DIR}/${recordFolderName(PLAYBOOK)}/${recordFileName({ kind: "evidence", playbook: PLAYBOOK, target: "p1.1", validation })}`,
      ),
    ) as { at: string; detail: { outputDigest: string; tree: string } };
  }

  it("appends the proof table, each validation with its evidence and marked re-proved", () => {
    const repo = verifiedRepo();
    const summary = stepSummary();

    const result = inActions(repo, summary);

    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const text = readFileSync(summary, "utf8");
    expect(
      text.startsWith(
        "earlier output of this step\n## playbook check --rerun\n",
      ),
    ).toBe(true);
    expect(text).toContain(
      "✅ **3 of 3 validations re-proved**: each ran again and agrees with its evidence.",
    );
    const technical = evidenceOf(repo, "technical");
    const hex = (hash: string) => hash.replace(/^sha256:/, "").slice(0, 12);
    expect(text).toContain(
      `| ☑ **p1.1** | the app exists | technical (automated) | \`cat flags/ok\` | ✅ PASS, exit 0 by \`playbook-verify\` | \`${hex(technical.detail.outputDigest)}\` | \`${hex(technical.detail.tree)}\` | ${technical.at.slice(0, 10)} ${technical.at.slice(11, 16)} UTC | ✅ re-proved |`,
    );
    expect(text).toMatch(
      /\| {2}\| {2}\| consistency \(automated\) \| `test -f src\/app\.ts` \| .* \| ✅ re-proved \|/,
    );
    // The same table as the pull request's body, with the re-run column added.
    const playbook = summarizeDocument(
      "playbook",
      repo.read(PLAYBOOK),
      PLAYBOOK,
    ) as PlaybookSummary;
    const { body } = renderPullRequest(
      PLAYBOOK,
      "plan/archive/playbook-rerun.md",
      playbook,
      createRecordSet(readRecords(repo.dir, PLAYBOOK)),
    );
    const rows = (markdown: string) =>
      markdown.split("\n").filter((line) => line.startsWith("| "));
    expect(rows(text).map((line) => line.replace(/ [^|]*\|$/, ""))).toEqual(
      rows(body),
    );
  });

  it("marks the validation whose re-run fails", () => {
    const repo = verifiedRepo();
    rmSync(repo.path("flags/ok"));
    const summary = stepSummary();

    const result = inActions(repo, summary);

    expect(result.status).toBe(1);
    const text = readFileSync(summary, "utf8");
    expect(text).toContain(
      "❌ **1 of 3 validations disagree with their evidence.**",
    );
    expect(text).toMatch(
      /\| technical \(automated\) \| `cat flags\/ok` \| .* \| ❌ FAIL: the evidence says PASS, the rerun FAILs \|/,
    );
  });

  it("writes nothing outside GitHub Actions", () => {
    const repo = verifiedRepo();
    const summary = stepSummary();

    const result = runCli(["check", "--rerun", "--cwd", repo.dir], {
      env: { GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: summary },
    });

    expect(result.status).toBe(0);
    expect(readFileSync(summary, "utf8")).toBe("earlier output of this step\n");
    expect(result.stderr).toBe("");
  });

  it.each([
    [
      "a file of the project",
      (repo: Repo) => repo.path("state.md"),
      "is inside",
    ],
    [
      "a link to a file of the project",
      (repo: Repo) => {
        const link = join(
          mkdtempSync(join(tmpdir(), "runner-temp-")),
          "step_summary_1",
        );
        symlinkSync(repo.path("state.md"), link);
        return link;
      },
      "it is a symbolic link",
    ],
    ["a relative path", () => "step_summary_1", "is not an absolute path"],
  ])(
    "never writes the summary to %s, and says so without changing the verdict",
    (_, path, why) => {
      const repo = verifiedRepo();
      const state = repo.read("state.md");

      const result = inActions(repo, path(repo));

      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.stderr).toContain(
        "playbook check: no job summary written: GITHUB_STEP_SUMMARY",
      );
      expect(result.stderr).toContain(why);
      expect(repo.read("state.md")).toBe(state);
      expect(repo.git("status", "--porcelain")).toBe("");
    },
  );
});
