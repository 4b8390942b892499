// The demo's play (`npm run demo`, demo/main.ts): the Golden Path end to end on a sample project, driven by the real
// Claude Code CLI (pinned, headless) against a scripted model, in a project where `playbook init` installed playbook
// from the packed tarball, with edits accepted and playbook's commands and the tests allowed, as its users run it.
// The Golden Path test plays it in-process and reads every fact it checks from this one recording.
import {
  existsSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { claudeCodeVersion, ensureClaudeCode } from "../scripts/claude-code.ts";
import { createColors } from "../src/cli/print/colors.ts";
import type { GitHubServer } from "../harness/github-server.ts";
import {
  createGoldenPath,
  type GoldenPath,
  type SessionOptions,
} from "./golden-path.ts";
import { useLocalGitHub } from "./local-github.ts";
import { readTaskOutcome } from "./outcome.ts";
import { goldenPathSessions } from "./run-task.ts";
import { MULTIPLY } from "./tasks.ts";
import { formatHeading, formatStep } from "./transcript.ts";

/** The words the transcript uses, said once before it starts. */
const LEGEND = [
  "The Golden Path is playbook's way through a task: a plan first, proof for every claim, then a merged hand-over.",
  "pm, reviewer and critic are Claude Code subagents playbook installs: pm writes the plan (a playbook), the reviewer",
  "approves it, the critic judges each finished phase. p1 is a phase of the playbook, p1.1 one of its subtasks, ft1",
  "a final task. The archive merges the finished work; the post-loop lock then holds further changes until the next",
  "task is picked.",
];

/** What Claude Code users run: edits accepted, playbook's commands and the tests allowed, anything else refused. */
export const ACCEPT_EDITS = {
  permissionMode: "acceptEdits" as const,
  allowedTools: ["Bash(npx --no playbook:*)", "Bash(npm test)", "Skill"],
};

export interface DemoOptions {
  github: boolean;
  /** Where the transcript goes (stdout for `npm run demo`). */
  out: (text: string) => void;
  /** Where a failure to run goes (stderr). */
  err: (text: string) => void;
  /** The JSON numbers the benchmark reads. */
  summary?: string | undefined;
  /** The plan's date; today by default. */
  date?: string;
  /** Sees the two sessions' moves before they run (a test attaches its probes). */
  prepare?: (
    request: SessionOptions,
    next: SessionOptions,
    world: GoldenPath,
  ) => void;
}

export interface DemoRun {
  /** 0 when the task went from prompt to merged work with every step as expected. */
  exitCode: number;
  /** The played world; null when the demo could not start. */
  world: GoldenPath | null;
  /** The local GitHub, still serving until `close`. */
  github: GitHubServer | null;
  /** Ends the run: closes the local GitHub (its schema violations fail the run) and deletes the project unless kept. */
  close: (keep: boolean) => Promise<number>;
}

export async function playDemo(options: DemoOptions): Promise<DemoRun> {
  const { out } = options;
  const started = performance.now();
  const c = createColors();
  const root = realpathSync(mkdtempSync(join(tmpdir(), "playbook-demo-")));
  const cli = join(import.meta.dirname, "..", "dist", "cli.mjs");
  let stage = "";
  const TOKEN = "ghp_demo0000000000000000000000000000000000";
  const env: Record<string, string | undefined> = {
    GITHUB_TOKEN: undefined,
    GH_TOKEN: undefined,
    NO_COLOR: "1",
  };
  const github = options.github ? useLocalGitHub(env, TOKEN) : null;
  let exitCode = 1;
  let world: GoldenPath | null = null;
  try {
    if (!existsSync(cli))
      throw new Error(
        `${cli} is missing: the CLI is not built. Run \`npm run build\` first`,
      );
    const claude = ensureClaudeCode();
    out(
      `${c.bold("playbook demo")}: one task on a sample project, from the request to merged work, driven by the real Claude Code against a scripted model\n${c.dim(`project ${join(root, "calc")}, remote ${join(root, "calc.git")}, archive provider ${options.github ? "github (local server)" : "local"}`)}\n${c.dim(`Claude Code ${claudeCodeVersion()}, ${claude}`)}\n`,
    );
    out(`\n${LEGEND.map((line) => `${c.dim("│")} ${line}`).join("\n")}\n`);
    out(
      formatHeading(
        "0. Setup: a Node project on main, playbook installed from its tarball",
        c,
      ),
    );
    world = await createGoldenPath({
      root,
      env,
      onStep: (step) => {
        if (step.stage && step.stage !== stage) {
          stage = step.stage;
          out(formatHeading(stage, c));
        }
        out(formatStep(step, c));
      },
      ...github?.options,
    });
    const [request, next] = goldenPathSessions(
      world,
      MULTIPLY,
      options.date ?? new Date().toISOString().slice(0, 10),
    );
    options.prepare?.(request, next, world);
    for (const session of [request, next])
      await world.session({ ...session, ...ACCEPT_EDITS });
    const line = await world.statusLine();
    const outcome = readTaskOutcome(world, [
      "src/multiply.js",
      "plan/archive/playbook-multiply.md",
    ]);
    const githubServer = github?.server() ?? null;
    const pulls = githubServer
      ? githubServer.requests.filter(
          (r) =>
            r.method === "POST" &&
            r.path.endsWith("/pulls") &&
            r.status === 201,
        ).length
      : 0;
    const hooks = world.hooks;
    const hookMs = hooks.reduce((sum, run) => sum + run.ms, 0);
    const unexpected = world.steps.filter((step) => !step.expected);
    const denies = world.steps.filter((step) => step.verdict === "deny").length;
    const merged =
      Object.values(outcome.onMain).every(Boolean) &&
      outcome.state.active === "null" &&
      !outcome.locked &&
      (githubServer === null || pulls === 1);
    const wallMs = performance.now() - started;
    out(formatHeading("Summary", c));
    const row = (label: string, value: string) =>
      out(`  ${c.dim(label.padEnd(16))}${value}\n`);
    row(
      "steps",
      `${world.steps.length}, ${unexpected.length === 0 ? c.green("each answered as the Golden Path expects") : c.red(`${unexpected.length} unexpected`)}`,
    );
    row("guards", `${denies} tool calls refused, each with its next step`);
    row(
      "hooks",
      `${hooks.length} hook runs, ${Math.round(hookMs)} ms in total (${Math.round(hookMs / Math.max(1, hooks.length))} ms each on average)`,
    );
    row(
      "main",
      `"${outcome.mainHead}": src/multiply.js and plan/archive/playbook-multiply.md on origin/main`,
    );
    if (githubServer)
      row(
        "pull requests",
        `${pulls} opened and merged on the local GitHub (acme/calc)`,
      );
    row(
      "state.md",
      `active ${outcome.state.active}, last_archived ${outcome.state.lastArchived}`,
    );
    row(
      "records",
      `${outcome.records.length} (review, evidence, critic), kept in git`,
    );
    row("status line", line);
    row("wall time", `${(wallMs / 1000).toFixed(1)} s`);
    exitCode = unexpected.length === 0 && merged ? 0 : 1;
    out(
      exitCode === 0
        ? `\n${c.green("The task went from prompt to merged work; every shortcut was refused.")}\n`
        : `\n${c.red("The Golden Path did not go as expected")} (see the lines marked unexpected above).\n`,
    );
    if (options.summary)
      writeFileSync(
        options.summary,
        JSON.stringify({
          wallMs,
          hookRuns: hooks.length,
          hookMs,
          slowestHookMs: Math.max(...hooks.map((run) => run.ms)),
          steps: world.steps.length,
          unexpected: unexpected.length,
          provider: options.github ? "github" : "local",
        }),
      );
  } catch (error) {
    // Not a verdict that left the path: the demo itself could not run (git missing, no build, a full disk).
    const message = error instanceof Error ? error.message : String(error);
    options.err(
      message.includes("Next:")
        ? `The demo could not run: ${message}\n`
        : `The demo could not run: ${message}\nNext: run \`npm run demo\`, which builds first; if it fails again, check \`git --version\`.\n`,
    );
    exitCode = 1;
  }
  const server = github?.server() ?? null;
  return {
    exitCode,
    world,
    github: server,
    close: async (keep) => {
      if (server) {
        if (server.violations.length > 0) {
          out(
            `${c.red("GitHub API schema violations:")}\n${server.violations.join("\n")}\n`,
          );
          exitCode = 1;
        }
        await server.close();
      }
      if (keep) out(`Kept ${root}\n`);
      else {
        if (exitCode === 0)
          out(
            c.dim(
              "Run `npm run demo -- --keep` to keep the project and look around.\n",
            ),
          );
        rmSync(root, { recursive: true, force: true });
      }
      return exitCode;
    },
  };
}
