import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { summarizePlaybook } from "../../src/core/cache/summary.ts";
import { parsePlaybook } from "../../src/core/parse/parse-playbook.ts";
import {
  recordFileName,
  recordFolderName,
  RECORDS_DIR,
} from "../../src/core/records/record-path.ts";
import { githubWorkflow } from "../../src/core/scaffold/ci-workflow.ts";
import { approveInTest } from "../helpers/guarded-repo.ts";
import { runPullRequestTarget } from "../helpers/actions-runner.ts";
import { requireSandboxTools } from "../helpers/required-tools.ts";
import { CLI_BUNDLE, runCli } from "../helpers/run-cli.ts";

const PLAYBOOK = "plan/playbook-divide.md";
const WORKFLOW = ".github/workflows/playbook.yml";
const GOOD = "export const divide = (a, b) => a / b;\n";
const BUGGY = "export const divide = () => 0;\n";

function playbook(checked: boolean, done = false): string {
  return `# playbook-divide

## meta
\`\`\`yaml
project: divide
reviewed: false
branch: feat/divide
\`\`\`

## goal
\`\`\`yaml
summary: divide divides.
done_when:
  - node test/divide-check.mjs passes
\`\`\`

## context
Who: CI. What: a pull request.

## phases

### p1: Divide
**status**: ${done ? "done" : "in_progress"}

- [${checked ? "x" : " "}] **p1.1**: \`src/divide.mjs\` exports \`divide\`
  - executor: claudecode
  - validations:
    - technical: "automated - node test/divide-check.mjs"
    - consistency: "automated - test -f src/divide.mjs"
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
  .replace("branch: null", "branch: feat/divide");

interface World {
  dir: string;
  repo: string;
  remote: string;
  baseSha: string;
  write(path: string, text: string): void;
  read(path: string): string;
  git(...args: string[]): string;
  /**
   * The agent's work: the code, `before`, a verify, the tick, `after`, a commit of the working tree and a push; the
   * head's sha.
   */
  work(
    code: string,
    steps?: { before?: (world: World) => void; after?: (world: World) => void },
  ): string;
  /** Commits what git's index holds (not the working tree) and pushes it; the head's sha. */
  commitIndex(): string;
  /** GitHub Actions on the pull request of head `sha`, in a fresh folder. */
  ci(sha: string): ReturnType<typeof runPullRequestTarget>;
}

/**
 * A project on GitHub (a bare remote) whose default branch has playbook installed from its lockfile (a package that
 * runs this build) and the workflow `init --ci github` writes; the agent works on feat/divide in a clone.
 */
function ciWorld(): World {
  requireSandboxTools();
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "playbook-ci-")));
  const verifier = join(dir, "verifier-package");
  mkdirSync(verifier);
  writeFileSync(
    join(verifier, "package.json"),
    JSON.stringify({
      name: "playbook-kit",
      version: "0.0.0",
      bin: { playbook: "cli.mjs" },
    }),
  );
  writeFileSync(
    join(verifier, "cli.mjs"),
    `#!/usr/bin/env node\nawait import(${JSON.stringify(pathToFileURL(CLI_BUNDLE).href)});\n`,
  );
  // At the same depth as CI's base/ and pr/ folders, so the lockfile's relative link resolves in all three.
  const repo = join(dir, "dev", "repo");
  const remote = join(dir, "remote.git");
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: repo,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@e.x",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@e.x",
      },
    });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const read = (path: string) => readFileSync(join(repo, path), "utf8");
  write(
    "package.json",
    `${JSON.stringify({ name: "divide", private: true, type: "module" }, null, 2)}\n`,
  );
  execFileSync(
    "npm",
    [
      "install",
      "--offline",
      "--no-audit",
      "--no-fund",
      "--save-dev",
      "../../verifier-package",
    ],
    { cwd: repo, stdio: "pipe" },
  );
  write(
    ".gitignore",
    "node_modules/\n.claude/playbook/*\n!.claude/playbook/records/\n.claude/playbook/records/history.jsonl\n",
  );
  write(".claude/playbook.json", `${JSON.stringify({ security: "strict" })}\n`);
  write("state.md", STATE);
  write(PLAYBOOK, playbook(false));
  // Proof counts only in a plan the reviewer approved.
  approveInTest(repo, PLAYBOOK);
  write(
    "test/divide-check.mjs",
    'import { divide } from "../src/divide.mjs";\nif (divide(6, 3) !== 2) {\n  console.error("divide(6, 3) is not 2");\n  process.exit(1);\n}\n',
  );
  write(WORKFLOW, githubWorkflow());
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  git("remote", "add", "origin", remote);
  git("push", "-q", "origin", "main");
  const baseSha = git("rev-parse", "HEAD").trim();
  git("switch", "-q", "-c", "feat/divide");
  let runs = 0;
  const world: World = {
    dir,
    repo,
    remote,
    baseSha,
    write,
    read,
    git,
    work: (code, steps = {}) => {
      write("src/divide.mjs", code);
      steps.before?.(world);
      runCli(["verify", "p1.1", "--cwd", repo]);
      write(PLAYBOOK, playbook(true));
      steps.after?.(world);
      git("add", "-A");
      return world.commitIndex();
    },
    commitIndex: () => {
      git("commit", "-q", "-m", "feat: divide");
      git("push", "-q", "-f", "origin", "feat/divide");
      return git("rev-parse", "HEAD").trim();
    },
    ci: (sha) =>
      runPullRequestTarget(
        { remote, defaultBranch: "main", baseSha, headSha: sha },
        join(dir, `runner-${++runs}`),
      ),
  };
  return world;
}

const TIMEOUT = 180_000;

describe("CI re-proves a pull request with the base branch's verifier", () => {
  it(
    "an honest pull request passes",
    () => {
      const world = ciWorld();
      const run = world.ci(world.work(GOOD));

      expect(run.ran).toBe(true);
      expect(run.status, run.output).toBe(0);
      expect(run.output).toContain(
        "rerun: 3 validations agree with their evidence",
      );
      // The job summary: the pull request's proof table, each validation marked re-proved.
      expect(run.summary).toContain(
        "✅ **3 of 3 validations re-proved**: each ran again and agrees with its evidence.",
      );
      expect(run.summary).toMatch(
        /\| ☑ \*\*p1\.1\*\* \| .+ \| technical \(automated\) \| `node test\/divide-check\.mjs` \| ✅ PASS, exit 0 by `playbook-verify` \| `[0-9a-f]{12}` \| `[0-9a-f]{12}` \| \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \| ✅ re-proved \|/,
      );
    },
    TIMEOUT,
  );

  it(
    "a pull request that appends `|| true` to its check still fails on the bug, and its workflow change is left to a person",
    () => {
      const world = ciWorld();
      const sha = world.work(BUGGY, {
        after: (w) =>
          w.write(
            WORKFLOW,
            w.read(WORKFLOW).replace(/(check --rerun .*)\n/, "$1 || true\n"),
          ),
      });
      expect(world.git("show", `${sha}:${WORKFLOW}`)).toContain("|| true");

      const run = world.ci(sha);

      expect(run.commands.join("\n")).not.toContain("|| true");
      expect(run.status).toBe(1);
      expect(run.output).toMatch(
        /✗ p1\.1 technical\s+evidence FAIL\s+rerun FAIL/,
      );
      expect(run.output).toContain(
        `This pull request changes what CI cannot judge: ${WORKFLOW}. A person must review it and merge it`,
      );
      expect(run.summary).toContain(
        `❌ This pull request changes what CI cannot judge: \`${WORKFLOW}\`.`,
      );
      expect(run.summary).toMatch(
        /\| technical \(automated\) \| `node test\/divide-check\.mjs` \| ❌ FAIL, exit 1 by `playbook-verify` \| .* \| ❌ FAIL: [^|]+ \|$/m,
      );
    },
    TIMEOUT,
  );

  it(
    "a root postinstall that replaces the playbook CLI never runs, and the base's CLI finds the bug",
    () => {
      const world = ciWorld();
      const pwned = join(world.dir, "postinstall-ran");
      const sha = world.work(BUGGY, {
        after: (w) => {
          const fake = `#!/bin/sh\necho "every claim is proven"\n`;
          w.write(
            "evil.cjs",
            `const fs = require("fs");\nfs.writeFileSync(${JSON.stringify(pwned)}, "");\nfor (const dir of ["node_modules/.bin", "../base/node_modules/.bin"]) {\n  fs.rmSync(dir + "/playbook", { force: true });\n  fs.writeFileSync(dir + "/playbook", ${JSON.stringify(fake)}, { mode: 0o755 });\n}\n`,
          );
          const pkg = JSON.parse(w.read("package.json")) as Record<
            string,
            unknown
          >;
          pkg["scripts"] = { postinstall: "node evil.cjs" };
          w.write("package.json", `${JSON.stringify(pkg, null, 2)}\n`);
        },
      });

      const run = world.ci(sha);

      expect(existsSync(pwned)).toBe(false);
      expect(run.output).not.toContain("every claim is proven");
      expect(run.status).toBe(1);
      expect(run.output).toMatch(
        /✗ p1\.1 technical\s+evidence FAIL\s+rerun FAIL/,
      );
    },
    TIMEOUT,
  );

  it(
    "records forged with git plumbing are refused: PASS evidence for a bug, a critic verdict bound to nothing",
    () => {
      const world = ciWorld();
      world.work(BUGGY, {
        after: (w) => w.write(PLAYBOOK, playbook(true, true)),
      });
      const w = world;
      const folder = `${RECORDS_DIR}/${recordFolderName(PLAYBOOK)}`;
      const evidencePath = `${folder}/${recordFileName({ kind: "evidence", playbook: PLAYBOOK, target: "p1.1", validation: "technical" })}`;
      const genuine = JSON.parse(w.read(evidencePath)) as {
        verdict: string;
        detail: Record<string, unknown>;
      };
      expect(genuine.verdict).toBe("FAIL");
      const summary = summarizePlaybook(
        parsePlaybook(playbook(true, true), PLAYBOOK).value,
        [],
      );
      const forged = {
        [evidencePath]: {
          ...genuine,
          verdict: "PASS",
          detail: { ...genuine.detail, exitCode: 0 },
        },
        [`${folder}/${recordFileName({ kind: "critic", playbook: PLAYBOOK, target: "p1" })}`]:
          {
            kind: "critic",
            playbook: PLAYBOOK,
            target: "p1",
            contentHash: summary.hashes.phases["p1"],
            verdict: "PASS",
            by: "critic",
            at: new Date().toISOString(),
            detail: { evidence: "looks fine", source: "SubagentStop" },
          },
      };
      // The shell cannot write .claude/playbook/ in the sandbox, but it can write git's objects and index.
      for (const [path, record] of Object.entries(forged)) {
        const oid = execFileSync("git", ["hash-object", "-w", "--stdin"], {
          cwd: w.repo,
          input: `${JSON.stringify(record, null, 2)}\n`,
          encoding: "utf8",
        }).trim();
        w.git("update-index", "--add", "--cacheinfo", `100644,${oid},${path}`);
      }
      const sha = world.commitIndex();

      const run = world.ci(sha);

      expect(run.status).toBe(1);
      expect(run.output).toContain("the evidence says PASS, the rerun FAILs");
      expect(run.output).toContain(
        "Unexpected critic verdict on p1 that does not bind to this pull request: it names no plan and code it was made for",
      );
    },
    TIMEOUT,
  );

  it(
    "a pull request that honestly changes the workflow reaches a person: it fails with the reason, never passes unseen",
    () => {
      const world = ciWorld();
      const sha = world.work(GOOD, {
        before: (w) =>
          w.write(
            WORKFLOW,
            w
              .read(WORKFLOW)
              .replace('node-version: "20"', 'node-version: "22"'),
          ),
      });

      const run = world.ci(sha);

      expect(run.status).toBe(1);
      expect(run.output).toContain(
        "rerun: 3 validations agree with their evidence",
      );
      expect(run.output).toContain(
        `This pull request changes what CI cannot judge: ${WORKFLOW}. A person must review it and merge it`,
      );
    },
    TIMEOUT,
  );
});
