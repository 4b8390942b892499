import { writeSync } from "node:fs";

/**
 * The watchdog of a PreToolUse call (docs/trust-boundary.md, "Fail closed"): a worker thread that, if the call has not
 * been answered by its time, writes the deny reply itself and ends the process. Claude Code reads a JSON reply on
 * stdout even from a process killed after writing it (tried with the pinned version), and `onFailure: "block"` blocks
 * the call anyway if nothing usable arrives. The worker runs its own thread, so it answers even while the main thread
 * is stuck in synchronous work (a parse, a read). Started only before such work: a worker costs a tool call ~4 ms.
 *
 * Who writes the one reply is decided by one compare-and-swap on shared memory: 0 open, 1 the hook, 2 the watchdog.
 */
const WORKER = `
const { workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const flag = new Int32Array(workerData.flag);
Atomics.wait(flag, 0, 0, workerData.ms);
if (Atomics.compareExchange(flag, 0, 0, 2) === 0) {
  const text = new Uint8Array(workerData.text);
  writeSync(1, text.subarray(0, Atomics.load(flag, 1)));
  process.kill(process.pid, "SIGKILL");
}
`;

/** Room for the reply: a deny reason is a few hundred bytes. */
const REPLY_BYTES = 16 * 1024;

/** [0]: who replies; [1]: the length of the watchdog's reply in `text`. */
let flag: Int32Array | null = null;
let text: Uint8Array | null = null;

/**
 * Starts the watchdog once per process: at `atUptimeMs` after the process began it answers `reply` (JSON text).
 * Called again, it only replaces the reply (it names what the call is doing now).
 */
export function armWatchdog(atUptimeMs: number, reply: string): void {
  if (flag === null || text === null) {
    const { Worker } = process.getBuiltinModule("node:worker_threads");
    const shared = new SharedArrayBuffer(8);
    const sharedText = new SharedArrayBuffer(REPLY_BYTES);
    flag = new Int32Array(shared);
    text = new Uint8Array(sharedText);
    setReply(reply);
    const ms = Math.max(0, atUptimeMs - process.uptime() * 1000);
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { flag: shared, text: sharedText, ms },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    // A process that ends must wake the worker, or its exit would wait for the worker's sleep.
    process.once("exit", () => claimReply());
    return;
  }
  setReply(reply);
}

/** Writes the reply the worker would send; a reply that does not fit is cut to an empty one (no answer: blocked). */
function setReply(reply: string): void {
  if (flag === null || text === null) return;
  const bytes = Buffer.from(reply, "utf8");
  const fits = bytes.length <= REPLY_BYTES;
  // The length goes to 0 first, so the worker never sends a mix of two replies.
  Atomics.store(flag, 1, 0);
  if (fits) text.set(bytes);
  Atomics.store(flag, 1, fits ? bytes.length : 0);
}

/**
 * The hook's claim on the one reply: true when it may write it (no watchdog, or the watchdog has not answered), and
 * from then on the watchdog stays silent.
 */
function claimReply(): boolean {
  if (flag === null) return true;
  const won = Atomics.compareExchange(flag, 0, 0, 1) !== 2;
  Atomics.notify(flag, 0);
  return won;
}

/** Writes the hook's reply unless the watchdog answered first. */
export function writeReply(text: string): void {
  if (claimReply() && text !== "") writeSync(1, text);
}
