import { spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

/**
 * `dist/job.cjs`: the two halves of a playbook command the hook runs for the agent (started from
 * app/hook/events/tool-call.ts, with the arguments core/guards/trusted-args.ts allows).
 *
 * - `run <job> <cli> <args...>`: started by the hook, outside the agent's sandbox. Runs the playbook CLI with its output
 *   in `<job>/output`, then writes the exit code to `<job>/status` (atomically, so a reader sees all of it or none).
 * - `start <job> <cli> <args...>`: the same, started at once rather than after its waiter (the archive the hook starts
 *   after the last tick: the hook itself waits for it first, and no waiter may ever come).
 * - `wait <job>`: what the agent's Bash tool runs instead of the command. Prints the output as it grows and exits
 *   with the command's exit code: the agent sees the command as if it had run it, and can write nothing here.
 */
const POLL_MS = 100;
/** The runner touches `<job>/alive` this often; a waiter that sees no touch for STALE_MS gives up. */
const HEARTBEAT_MS = 1000;
const STALE_MS = Number(process.env["PLAYBOOK_JOB_STALE_MS"]) || 15_000;

/** How long a job waits for its waiter to start before it runs anyway (the user may be asked about the call first). */
const WAITER_MS = 5000;

function run(job: string, cli: string, args: readonly string[]): void {
  const alive = join(job, "alive");
  writeFileSync(alive, "");
  whenWaiterRuns(job, () => start(job, cli, args, alive));
}

/**
 * On Linux, the waiter's sandbox bind-mounts `state.md` and the files under `plan/` read-only as it starts; a file
 * this job replaces meanwhile (`playbook new` writes both) makes bubblewrap fail with "Can't bind mount ...", and the
 * agent never sees the job's output. So the job starts once the waiter's process exists, when every mount is made,
 * or after WAITER_MS.
 */
function whenWaiterRuns(job: string, then: () => void): void {
  if (process.platform !== "linux") return then();
  const deadline = Date.now() + WAITER_MS;
  const poll = () => {
    if (waiterRuns(job) || Date.now() > deadline) then();
    else setTimeout(poll, 20);
  };
  poll();
}

function waiterRuns(job: string): boolean {
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0");
    } catch {
      continue;
    }
    const at = args.indexOf("wait");
    if (at > 0 && args[at + 1] === job) return true;
  }
  return false;
}

function start(
  job: string,
  cli: string,
  args: readonly string[],
  alive: string,
): void {
  const out = openSync(join(job, "output"), "a");
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ["ignore", out, out],
  });
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimesSync(alive, now, now);
  }, HEARTBEAT_MS);
  const finish = (code: number) => {
    clearInterval(heartbeat);
    closeSync(out);
    const temp = join(job, `status.${process.pid}.tmp`);
    writeFileSync(temp, `${code}\n`);
    renameSync(temp, join(job, "status"));
  };
  child.on("error", (error) => {
    writeSync(out, `playbook could not start: ${error.message}\n`);
    finish(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) writeSync(out, `playbook stopped by ${signal}\n`);
    finish(code ?? 1);
  });
}

function wait(job: string): void {
  const output = join(job, "output");
  const status = join(job, "status");
  let offset = 0;
  const buffer = Buffer.alloc(64 * 1024);
  const drain = () => {
    if (!existsSync(output)) return;
    const fd = openSync(output, "r");
    try {
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, offset);
        if (n <= 0) break;
        writeSync(1, buffer.subarray(0, n));
        offset += n;
      }
    } finally {
      closeSync(fd);
    }
  };
  const tick = () => {
    const done = existsSync(status);
    drain();
    if (!done) {
      if (stale(join(job, "alive"))) {
        process.stderr.write(
          `playbook: the job in ${job} stopped without a result; run the command again.\n`,
        );
        process.exit(1);
      }
      setTimeout(tick, POLL_MS);
      return;
    }
    const code = Number.parseInt(readFileSync(status, "utf8"), 10);
    process.exit(Number.isInteger(code) ? code : 1);
  };
  tick();
}

const started = Date.now();

/** No heartbeat for a while (or none at all, long after the wait began): the runner is gone. */
function stale(alive: string): boolean {
  let last = started;
  try {
    last = Math.max(last, statSync(alive).mtimeMs);
  } catch {
    // Not written yet: measured from the start of the wait.
  }
  return Date.now() - last > STALE_MS;
}

const [mode, job, ...rest] = process.argv.slice(2);
if (mode === "run" && job && rest[0]) run(job, rest[0], rest.slice(1));
else if (mode === "start" && job && rest[0]) {
  writeFileSync(join(job, "alive"), "");
  start(job, rest[0], rest.slice(1), join(job, "alive"));
} else if (mode === "wait" && job) wait(job);
else {
  process.stderr.write(
    "usage: node job.cjs run|start <job> <cli> <args...> | wait <job>\n",
  );
  process.exit(2);
}
