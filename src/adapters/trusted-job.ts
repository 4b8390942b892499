import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { RUNTIME_DIR } from "./runtime-files.ts";

/** Jobs older than this are removed when a new one starts: their output has been read long ago. */
const KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * Starts `playbook <args>` as a job of the hook's own (outside the agent's sandbox, which hooks never run in) and
 * returns the command the agent's Bash tool runs instead: it prints the job's output as it comes and exits with its
 * exit code. The job outlives the hook, so a long `verify` or `archive` is not bound by the hook's timeout.
 */
export function startTrustedJob(input: {
  projectDir: string;
  /** The folder of the running bundle: `job.cjs` and `cli.mjs` sit there. */
  distDir: string;
  /** Where the agent's shell would have run the command. */
  cwd: string;
  id: string;
  args: readonly string[];
  now: Date;
  /**
   * Start at once instead of once the waiter runs (or after 5 s): for a job the hook waits for itself, whose waiter
   * may never be run.
   */
  startNow?: boolean;
}): { display: string; jobDir: string } {
  const jobs = join(input.projectDir, RUNTIME_DIR, "jobs");
  pruneJobs(jobs, input.now.getTime());
  const jobDir = join(jobs, input.id.replace(/[^A-Za-z0-9_-]/g, "_"));
  // A reused id (a replayed call) must not find the last job's exit status waiting.
  rmSync(jobDir, { recursive: true, force: true });
  mkdirSync(jobDir, { recursive: true });
  writeFileSync(
    join(jobDir, "command.json"),
    `${JSON.stringify({ args: input.args, cwd: input.cwd, at: input.now.toISOString() })}\n`,
  );
  writeFileSync(join(jobDir, "output"), "");
  const runner = join(input.distDir, "job.cjs");
  // Loaded here, not at the top: node:child_process costs the hook ~4 ms on every call otherwise.
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn(
    process.execPath,
    [
      runner,
      input.startNow === true ? "start" : "run",
      jobDir,
      join(input.distDir, "cli.mjs"),
      ...input.args,
    ],
    { cwd: input.cwd, detached: true, stdio: "ignore" },
  );
  child.unref();
  return { display: waiterCommand(input.distDir, jobDir), jobDir };
}

/** The command that follows job `jobDir` to its end: its output as it comes, then its exit code. */
export function waiterCommand(distDir: string, jobDir: string): string {
  return [process.execPath, join(distDir, "job.cjs"), "wait", jobDir]
    .map(shellQuote)
    .join(" ");
}

/** A job is alive while its runner touches `alive` (every second); after this long without a touch it is gone. */
const ALIVE_MS = 15_000;

export interface JobState {
  jobDir: string;
  args: string[];
  /** The exit code, or null while the job runs. */
  exitCode: number | null;
  /** No result, and no sign of life for a while: the runner died. */
  gone: boolean;
}

/** What job `jobDir` is doing now, or null when it is not a job. */
export function readJob(jobDir: string, now: number): JobState | null {
  let args: string[];
  try {
    const command = JSON.parse(
      readFileSync(join(jobDir, "command.json"), "utf8"),
    ) as { args?: unknown };
    if (
      !Array.isArray(command.args) ||
      !command.args.every((a) => typeof a === "string")
    )
      return null;
    args = command.args;
  } catch {
    return null;
  }
  let exitCode: number | null;
  try {
    const code = Number.parseInt(
      readFileSync(join(jobDir, "status"), "utf8"),
      10,
    );
    exitCode = Number.isInteger(code) ? code : 1;
  } catch {
    exitCode = null;
  }
  let last: number;
  try {
    last = statSync(join(jobDir, "alive")).mtimeMs;
  } catch {
    // The runner has not started yet: counted from when the hook made the job.
    last = startedAt(jobDir);
  }
  return {
    jobDir,
    args,
    exitCode,
    gone: exitCode === null && now - last > ALIVE_MS,
  };
}

function startedAt(jobDir: string): number {
  try {
    return statSync(join(jobDir, "command.json")).mtimeMs;
  } catch {
    return 0;
  }
}

/** The running jobs the hook started itself for `playbook <command>` (`archive`). */
export function runningJobs(
  projectDir: string,
  command: string,
  now: number,
): JobState[] {
  const jobs = join(projectDir, RUNTIME_DIR, "jobs");
  let names: string[];
  try {
    names = readdirSync(jobs);
  } catch {
    return [];
  }
  // The hook names the jobs it starts itself after their command (`archive-<time>`): Stop, on every turn's end,
  // reads only those, not every verify of the last day.
  return names
    .filter((name) => name.startsWith(`${command}-`))
    .map((name) => readJob(join(jobs, name), now))
    .filter(
      (job): job is JobState =>
        job !== null &&
        job.args[0] === command &&
        job.exitCode === null &&
        !job.gone,
    );
}

function pruneJobs(jobs: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(jobs);
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(jobs, name);
    try {
      if (now - statSync(dir).mtimeMs > KEEP_MS)
        rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another hook removed it first.
    }
  }
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}
