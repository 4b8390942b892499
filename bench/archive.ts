// Archive benchmark (issue 5): a full archive of a finished 3-phase playbook with the local provider against a bare
// remote, and with the GitHub provider against the local GitHub-compatible server, each compared in the same run
// with a shell script that makes the minimal equivalent git commands (and curl calls). Fresh repositories each run.
import { execFileSync, spawn } from "node:child_process";
import {
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeRecord } from "../src/adapters/record-store.ts";
import { readWorkingTree } from "../src/adapters/tree-fingerprint.ts";
import type { PlaybookSummary } from "../src/core/model/summary.ts";
import { summarizeDocument } from "../src/core/parse/summarize-document.ts";
import {
  phaseHash,
  reviewHash,
  subtaskHash,
} from "../src/core/records/content-hash.ts";
import { startGitHubServer } from "../test/helpers/github-server.ts";
import { renderLargePlaybook } from "../test/helpers/large-playbook.ts";
import { stateDoc } from "../test/helpers/sample-docs.ts";

const root = join(import.meta.dirname, "..");
const cli = join(root, "dist", "cli.mjs");
const PLAYBOOK = "plan/playbook-bench.md";
const BRANCH = "feat/large-migration";

export interface ArchiveBenchResult {
  name: string;
  playbook: number;
  script: number;
  ratio: number;
  gitPlaybook: number;
  gitScript: number;
}

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@e.x",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@e.x",
};

/** The 3-phase playbook, finished: every box ticked, every phase done, the final task checked. */
function finishedPlaybook(): string {
  return renderLargePlaybook(3, 4)
    .replace("reviewed: false", "reviewed: true")
    .replace(/- \[ \] \*\*/g, "- [x] **")
    .replace(/\*\*status\*\*: (?:in_progress|pending)/g, "**status**: done");
}

/** A repository on the playbook's branch with its work uncommitted and every record that backs the playbook. */
export function finishedRepository(config: object | null): {
  dir: string;
  bare: string;
} {
  const base = mkdtempSync(join(tmpdir(), "playbook-archive-bench-"));
  const bare = join(base, "remote.git");
  const dir = join(base, "work");
  mkdirSync(dir);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, stdio: "ignore", env: gitEnv });
  execFileSync("git", ["init", "--bare", "-q", "-b", "main", bare]);
  mkdirSync(join(dir, "plan"));
  writeFileSync(join(dir, PLAYBOOK), finishedPlaybook());
  writeFileSync(
    join(dir, "state.md"),
    stateDoc({ active: PLAYBOOK, branch: BRANCH, phase: "p3" }),
  );
  writeFileSync(join(dir, ".gitignore"), ".claude/playbook/\n");
  if (config) {
    mkdirSync(join(dir, ".claude"));
    writeFileSync(
      join(dir, ".claude", "playbook.json"),
      JSON.stringify(config),
    );
  }
  git("init", "-q", "-b", "main");
  git("config", "user.name", "b");
  git("config", "user.email", "b@e.x");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  git("remote", "add", "origin", bare);
  git("push", "-q", "-u", "origin", "main");
  git("switch", "-q", "-c", BRANCH);
  mkdirSync(join(dir, "src"));
  for (let p = 1; p <= 3; p++)
    writeFileSync(
      join(dir, "src", `module-${p}.ts`),
      `export const storage${p} = "v2";\n`,
    );
  const summary = summarizeDocument(
    "playbook",
    readFileSync(join(dir, PLAYBOOK), "utf8"),
    PLAYBOOK,
  ) as PlaybookSummary;
  const at = new Date().toISOString();
  // Evidence proves the code as it is now, as `playbook verify` records it.
  const tree = readWorkingTree(dir).fingerprint;
  const record = (r: Parameters<typeof writeRecord>[1]) => writeRecord(dir, r);
  record({
    kind: "review",
    playbook: PLAYBOOK,
    target: "playbook",
    contentHash: reviewHash(summary),
    verdict: "approve",
    by: "reviewer",
    at,
    detail: {},
  });
  for (const phase of summary.phases) {
    record({
      kind: "critic",
      playbook: PLAYBOOK,
      target: phase.id,
      contentHash: phaseHash(summary, phase.id) ?? "",
      verdict: "PASS",
      by: "critic",
      at,
      detail: {},
    });
    for (const subtask of phase.subtasks) {
      const hash = subtaskHash(summary, subtask.id) ?? "";
      for (const validation of ["technical", "consistency"] as const)
        record({
          kind: "evidence",
          playbook: PLAYBOOK,
          target: subtask.id,
          validation,
          contentHash: hash,
          verdict: "PASS",
          by: "playbook-verify",
          at,
          detail: { tree },
        });
      record({
        kind: "confirmation",
        playbook: PLAYBOOK,
        target: subtask.id,
        contentHash: hash,
        verdict: "PASS",
        by: "user",
        at,
        detail: {},
      });
    }
  }
  return { dir, bare };
}

/** What a person would type for the same end state, with no checks at all. */
function minimalScript(github: { url: string } | null): string {
  const lines = [
    "set -e",
    "git add -A",
    'git commit -q -m "feat: work"',
    `git push -q -u origin ${BRANCH}`,
    "mkdir -p plan/archive",
    `git mv ${PLAYBOOK} plan/archive/playbook-bench.md`,
    // The state reset a script would do with sed (GNU); playbook does it surgically through the parser.
    "sed -i -e 's#^active: .*#active: null#' -e 's#^branch: .*#branch: null#' state.md",
    "git add state.md",
    'git commit -q -m "chore: archive bench"',
    `git push -q origin ${BRANCH}`,
  ];
  if (github) {
    const api = `${github.url}/repos/acme/app`;
    const curl = `curl -sf -H "authorization: token t" -H "content-type: application/json"`;
    lines.push(
      `${curl} -X POST ${api}/pulls -d '{"title":"bench","head":"${BRANCH}","base":"main"}' > /dev/null`,
      `SHA=$(git rev-parse HEAD)`,
      `${curl} -X PUT ${api}/pulls/1/merge -d "{\\"sha\\":\\"$SHA\\",\\"merge_method\\":\\"merge\\"}" > /dev/null`,
      `${curl} -X DELETE ${api}/git/refs/heads%2F${BRANCH.replace("/", "%2F")} > /dev/null`,
      "git fetch -q origin main",
      "git switch -q main",
      "git merge -q --ff-only origin/main",
    );
  } else
    lines.push(
      "git switch -q main",
      `git merge -q --no-ff -m "Merge ${BRANCH}" ${BRANCH}`,
      "git push -q origin main",
      `git push -q origin --delete ${BRANCH}`,
    );
  return `${lines.join("\n")}\n`;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0)
        reject(
          new Error(
            `${command} ${args.join(" ")} exited ${code}: ${stderr}${stdout}`,
          ),
        );
      else resolve({ ms, stdout });
    });
  });
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

async function once(provider: "local" | "github"): Promise<{
  playbook: number;
  script: number;
  gitPlaybook: number;
  gitScript: number;
}> {
  const config =
    provider === "github"
      ? { archive: { repository: "acme/app", checkWaitSeconds: 0 } }
      : null;
  const ours = finishedRepository(config);
  const theirs = finishedRepository(config);
  const servers =
    provider === "github"
      ? await Promise.all(
          [ours, theirs].map((r) =>
            startGitHubServer({
              bare: r.bare,
              owner: "acme",
              repo: "app",
              token: "t",
            }),
          ),
        )
      : [];
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GITHUB_TOKEN: "t",
      GITHUB_API_URL: servers[0]?.url ?? "",
      PLAYBOOK_ARCHIVE_POLL_MS: "10",
    };
    if (provider === "local") delete env["GITHUB_TOKEN"];
    const playbook = await run(
      process.execPath,
      [cli, "archive", "--json", "--provider", provider, "--cwd", ours.dir],
      ours.dir,
      env,
    );
    const outcome = JSON.parse(playbook.stdout) as {
      status: string;
      gitProcesses: number;
    };
    if (outcome.status !== "success")
      throw new Error(`archive ended ${outcome.status}`);
    const scriptText = minimalScript(
      servers[1] ? { url: servers[1].url } : null,
    );
    writeFileSync(join(theirs.dir, "..", "archive.sh"), scriptText);
    const script = await run(
      "bash",
      [join(theirs.dir, "..", "archive.sh")],
      theirs.dir,
      gitEnv,
    );
    return {
      playbook: playbook.ms,
      script: script.ms,
      gitPlaybook: outcome.gitProcesses,
      gitScript: scriptText
        .split("\n")
        .filter((l) => /^(?:SHA=\$\()?git /.test(l)).length,
    };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    for (const r of [ours, theirs])
      rmSync(join(r.dir, ".."), { recursive: true, force: true });
  }
}

/** Runs each provider `runs` times (fresh repositories each time) and returns the medians. */
export async function benchArchive(runs = 5): Promise<ArchiveBenchResult[]> {
  const results: ArchiveBenchResult[] = [];
  for (const provider of ["local", "github"] as const) {
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await once(provider));
    const result = {
      name:
        provider === "local"
          ? "local provider, bare remote"
          : "GitHub provider, local GitHub server",
      playbook: median(samples.map((s) => s.playbook)),
      script: median(samples.map((s) => s.script)),
      ratio: median(samples.map((s) => s.playbook / s.script)),
      gitPlaybook: median(samples.map((s) => s.gitPlaybook)),
      gitScript: median(samples.map((s) => s.gitScript)),
    };
    process.stdout.write(
      `archive, ${result.name}: ${result.playbook.toFixed(0)} ms vs script ${result.script.toFixed(0)} ms (x${result.ratio.toFixed(2)}); git processes ${result.gitPlaybook} vs ${result.gitScript}\n`,
    );
    results.push(result);
  }
  return results;
}

if (process.argv[1] === import.meta.filename) await benchArchive();
