import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { childEnv } from "./run-cli.ts";

interface WorkflowStep {
  name?: string;
  uses?: string;
  run?: string;
  "working-directory"?: string;
  with?: Record<string, string | number | boolean>;
}

export interface PullRequestEvent {
  /** The bare repository standing in for GitHub. */
  remote: string;
  /** The default branch, whose workflow file `pull_request_target` runs. */
  defaultBranch: string;
  baseSha: string;
  headSha: string;
}

export interface WorkflowRun {
  /** Whether the default branch has a pull_request_target workflow at `path` at all. */
  ran: boolean;
  /** The exit status of the first failing step, or 0. */
  status: number;
  /** Every `run` step's output, in order. */
  output: string;
  /** The `run` steps executed, as written in the workflow. */
  commands: string[];
  /** What the steps appended to their job summaries (`$GITHUB_STEP_SUMMARY`), in order. */
  summary: string;
}

/**
 * Runs a workflow file the way GitHub Actions runs a `pull_request_target` event, for the one job it has: the file
 * is read from the default branch (never from the pull request), `actions/checkout` clones the remote at `ref`
 * into `path`, `actions/setup-node` and the apt-get step are the machine's own, and every `run` step runs in bash with
 * the event's `${{ }}` expressions filled in, in its working directory under `workspace`.
 */
export function runPullRequestTarget(
  event: PullRequestEvent,
  workspace: string,
  path = ".github/workflows/playbook.yml",
): WorkflowRun {
  const shown = spawnSync(
    "git",
    ["--git-dir", event.remote, "show", `${event.defaultBranch}:${path}`],
    { encoding: "utf8" },
  );
  if (shown.status !== 0)
    return { ran: false, status: 0, output: "", commands: [], summary: "" };
  const workflow = parse(shown.stdout) as {
    on: Record<string, unknown>;
    jobs: Record<string, { steps: WorkflowStep[] }>;
  };
  if (!("pull_request_target" in workflow.on))
    return { ran: false, status: 0, output: "", commands: [], summary: "" };
  const expressions: Record<string, string> = {
    "github.event.pull_request.base.sha": event.baseSha,
    "github.event.pull_request.head.sha": event.headSha,
    "github.base_ref": event.defaultBranch,
  };
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
      const value = expressions[name];
      if (value === undefined) throw new Error(`unknown expression ${name}`);
      return value;
    });
  mkdirSync(workspace, { recursive: true });
  // The runner's temp folder, beside the workspace as on GitHub (/home/runner/work/_temp): one summary file per step.
  const temp = `${workspace}-temp`;
  mkdirSync(temp, { recursive: true });
  const [job] = Object.values(workflow.jobs);
  let output = "";
  let summary = "";
  const commands: string[] = [];
  for (const step of job?.steps ?? []) {
    if (step.uses?.startsWith("actions/checkout@")) {
      const dir = join(workspace, String(step.with?.["path"] ?? "."));
      const ref = fill(String(step.with?.["ref"]));
      git(workspace, ["clone", "-q", event.remote, dir]);
      git(dir, ["checkout", "-q", "--detach", ref]);
      continue;
    }
    if (step.uses !== undefined || step.run === undefined) continue;
    if (step.run.includes("apt-get")) continue;
    const command = fill(step.run);
    commands.push(step.run);
    const stepSummary = join(temp, `step_summary_${commands.length}`);
    writeFileSync(stepSummary, "");
    const result = spawnSync("bash", ["-e", "-c", command], {
      cwd: join(workspace, step["working-directory"] ?? "."),
      env: childEnv({
        GITHUB_ACTIONS: "true",
        CI: "true",
        FORCE_COLOR: "0",
        GITHUB_STEP_SUMMARY: stepSummary,
      }),
      encoding: "utf8",
      timeout: 240_000,
    });
    output += `${result.stdout}${result.stderr}`;
    summary += readFileSync(stepSummary, "utf8");
    if (result.status !== 0)
      return {
        ran: true,
        status: result.status ?? 1,
        output,
        commands,
        summary,
      };
  }
  return { ran: true, status: 0, output, commands, summary };
}

function git(cwd: string, args: string[]): void {
  const result = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}
