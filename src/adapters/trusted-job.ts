import {
  mkdirSync,
  readdirSync,
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
    [runner, "run", jobDir, join(input.distDir, "cli.mjs"), ...input.args],
    { cwd: input.cwd, detached: true, stdio: "ignore" },
  );
  child.unref();
  const display = [process.execPath, runner, "wait", jobDir]
    .map(shellQuote)
    .join(" ");
  return { display, jobDir };
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
