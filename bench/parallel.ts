// Parallel sessions (issue 17): 8 sessions of the real Claude Code CLI at once, one per git worktree of one
// repository, each taking its own playbook (demo/tasks.ts, PARALLEL_TASKS) from the prompt to a merged pull request
// on the local GitHub-compatible server, against the scripted model. Reports the wall time, each task's hook time
// (from the stream's hook events, as bench/demo.ts does) and interference: anything one session caused in another.
// Runs alone with `npx tsx bench/parallel.ts [sessions]` (after `npm run build`); `npm run bench` calls
// `benchParallel()`.
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ensureClaudeCode } from "../scripts/claude-code.ts";
import { createGoldenPath, type SessionOutcome } from "../demo/golden-path.ts";
import { useLocalGitHub } from "../demo/local-github.ts";
import { runTask } from "../demo/run-task.ts";
import { PARALLEL_TASKS, type SampleTask } from "../demo/tasks.ts";
import { addWorktree } from "../demo/worktrees.ts";

const TOKEN = "ghp_bench0000000000000000000000000000000000";

/** A figure over the tasks: its median and range. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface ParallelBenchResult {
  sessions: number;
  /** Creating the project, `init`, and adding and installing the worktrees. */
  setupMs: number;
  /** From starting every session at once to the last one's end. */
  wallMs: number;
  /** Per task (its request session and the next one): the sum of its hook runs' latencies. */
  hookMs: Spread;
  /** Per task: its hook runs. */
  hookRuns: Spread;
  /** Per task: the PostToolUse that ran its archive. */
  archiveHookMs: Spread;
  /** Per task: the wall time of its request session (Claude Code's process, prompt to merged work). */
  sessionMs: Spread;
  /** Tasks whose pull request was merged and whose every commit is on main. */
  merged: number;
  /** Anything one session caused in another through playbook; each says what. */
  interference: string[];
  /**
   * Commands whose Claude Code sandbox could not start because another session's sandbox held the repository's
   * `.git/config.lock` (anthropics/claude-code#78818): Claude Code's own interference, which the model met by running
   * the command again.
   */
  sandboxRaces: string[];
  /** Moves that went otherwise than the Golden Path expects (a symptom, whatever its cause). */
  unexpected: string[];
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return {
    median:
      sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2,
    min: sorted[0] ?? 0,
    max: sorted.at(-1) ?? 0,
  };
}

/** The first of `others` whose playbook, branch or lock `text` names. */
function namesAnother(text: string, others: readonly string[]): string | null {
  return (
    others.find(
      (name) =>
        text.includes(`playbook-${name}.md`) || text.includes(`feat/${name}`),
    ) ?? null
  );
}

/** What one task's sessions show of the others: hook refusals, failures or context that name them. */
function crossTalk(
  task: string,
  sessions: readonly SessionOutcome[],
  others: readonly string[],
): string[] {
  const found: string[] = [];
  for (const session of sessions) {
    for (const step of session.steps) {
      const text = `${step.lines.join("\n")}\n${step.reply?.result?.text ?? ""}`;
      const other = namesAnother(text, others);
      if (
        other !== null &&
        (step.verdict === "deny" || step.verdict === "fail")
      )
        found.push(`${task}: "${step.title}" was refused naming ${other}`);
    }
    for (const run of session.hooks) {
      const other = namesAnother(run.stdout, others);
      if (other !== null)
        found.push(`${task}: its ${run.name} hook named ${other}`);
      if (run.exitCode !== null && run.exitCode !== 0)
        found.push(`${task}: its ${run.name} hook exited ${run.exitCode}`);
    }
  }
  return found;
}

/** 8 worktrees, 8 sessions at once, each task to a merged pull request (`count` tasks of PARALLEL_TASKS). */
export async function benchParallel(
  count = PARALLEL_TASKS.length,
): Promise<ParallelBenchResult> {
  const cli = join(import.meta.dirname, "..", "dist", "cli.mjs");
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run \`npm run build\` first`);
  ensureClaudeCode();
  const tasks: SampleTask[] = PARALLEL_TASKS.slice(0, count);
  const root = realpathSync(mkdtempSync(join(tmpdir(), "playbook-parallel-")));
  const env: Record<string, string | undefined> = {
    GITHUB_TOKEN: undefined,
    GH_TOKEN: undefined,
    NO_COLOR: "1",
  };
  const github = useLocalGitHub(env, TOKEN);
  try {
    const setupStart = performance.now();
    const world = await createGoldenPath({ root, env, ...github.options });
    const dirs = tasks.map((task) => addWorktree(world, task.name));
    const setupMs = performance.now() - setupStart;
    const date = new Date().toISOString().slice(0, 10);
    const started = performance.now();
    await Promise.all(
      tasks.map((task, index) =>
        runTask(world, task, date, { demoBlocks: false, dir: dirs[index]! }),
      ),
    );
    const wallMs = performance.now() - started;
    const server = github.server();
    const names = tasks.map((task) => task.name);
    const interference: string[] = [];
    let merged = 0;
    const perTask = tasks.map((task, index) => {
      const dir = dirs[index]!;
      const sessions = world.sessions.filter((s) => s.dir === dir);
      const hooks = sessions.flatMap((s) => s.hooks);
      interference.push(
        ...crossTalk(
          task.name,
          sessions,
          names.filter((name) => name !== task.name),
        ),
      );
      const tip = world.project
        .git("-C", dir, "rev-parse", `feat/${task.name}`)
        .trim();
      let onMain = true;
      try {
        world.project.remoteGit("merge-base", "--is-ancestor", tip, "main");
      } catch {
        onMain = false;
        interference.push(`${task.name}: ${tip} is not on main (lost)`);
      }
      const journal = JSON.parse(
        readFileSync(
          join(dir, ".claude", "playbook", "archive-journal.json"),
          "utf8",
        ),
      ) as {
        status: string;
        pr: { number: number } | null;
        steps: Record<string, { status: string; detail: string }>;
      };
      const prMerged =
        journal.status === "success" &&
        journal.pr !== null &&
        (server?.requests ?? []).some(
          (r) =>
            r.method === "PUT" &&
            r.path === `/repos/acme/calc/pulls/${journal.pr?.number}/merge` &&
            r.status === 200,
        );
      if (!prMerged) {
        const failed = Object.entries(journal.steps).find(
          ([, step]) => step.status === "failed",
        );
        interference.push(
          `${task.name}: the archive ended ${journal.status}, not merged${failed ? ` (${failed[0]}: ${failed[1].detail})` : ""}`,
        );
      }
      if (prMerged && onMain) merged++;
      return {
        hookMs: hooks.reduce((sum, run) => sum + run.ms, 0),
        hookRuns: hooks.length,
        archiveHookMs: Math.max(
          0,
          ...hooks.filter((r) => r.event === "PostToolUse").map((r) => r.ms),
        ),
        sessionMs: sessions[0]?.session.wallMs ?? 0,
      };
    });
    if ((server?.violations.length ?? 0) > 0)
      throw new Error(
        `GitHub API schema violations:\n${server?.violations.join("\n")}`,
      );
    return {
      sessions: tasks.length,
      setupMs,
      wallMs,
      hookMs: spread(perTask.map((t) => t.hookMs)),
      hookRuns: spread(perTask.map((t) => t.hookRuns)),
      archiveHookMs: spread(perTask.map((t) => t.archiveHookMs)),
      sessionMs: spread(perTask.map((t) => t.sessionMs)),
      merged,
      interference,
      sandboxRaces: world.sessions.flatMap((session) => session.replays),
      unexpected: world.steps
        .filter((step) => !step.expected)
        .map(
          (step) =>
            `${step.title}: ${step.verdict} ${step.lines.join(" ").slice(0, 300)}`,
        ),
    };
  } finally {
    await github.server()?.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** `1234 (1100-1500)`: a spread in whole units. */
export function formatSpread(value: Spread, scale = 1): string {
  const f = (n: number) => (n / scale).toFixed(0);
  return `${f(value.median)} (${f(value.min)}-${f(value.max)})`;
}

if (process.argv[1] === import.meta.filename) {
  const result = await benchParallel(
    Number(process.argv[2] ?? PARALLEL_TASKS.length),
  );
  const line = (label: string, value: string) =>
    process.stdout.write(`${label.padEnd(44)}${value}\n`);
  line("sessions at once (one per worktree)", String(result.sessions));
  line(
    "setup: project, init, worktrees (s)",
    (result.setupMs / 1000).toFixed(1),
  );
  line("wall time, all sessions (s)", (result.wallMs / 1000).toFixed(1));
  line("request session per task (s)", formatSpread(result.sessionMs, 1000));
  line("hook time per task (ms)", formatSpread(result.hookMs));
  line("hook runs per task", formatSpread(result.hookRuns));
  line(
    "the archive's PostToolUse per task (ms)",
    formatSpread(result.archiveHookMs),
  );
  line(
    "merged pull requests, no commit lost",
    `${result.merged}/${result.sessions}`,
  );
  line("interference through playbook", String(result.interference.length));
  for (const item of result.interference) line("", item);
  line(
    "Claude Code sandbox start races, run again",
    String(result.sandboxRaces.length),
  );
  for (const item of result.sandboxRaces) line("", item);
  line("steps off the Golden Path", String(result.unexpected.length));
  for (const item of result.unexpected) line("", item);
  process.exitCode =
    result.interference.length === 0 && result.unexpected.length === 0 ? 0 : 1;
}
