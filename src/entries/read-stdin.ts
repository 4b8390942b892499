import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  read,
  readSync,
} from "node:fs";

/** A 10 MB Write is still checked; beyond this the call cannot be judged. */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;
export const STDIN_TIMEOUT_MS = 3000;

export interface StdinRead {
  text: string;
  truncated: boolean;
  timedOut: boolean;
  /**
   * A read of fd 0 is still waiting in libuv's thread pool: `process.exit` would wait for it forever, so the caller
   * must end the process with a signal after writing its reply.
   */
  readPending: boolean;
}

/**
 * Reads the event from stdin, at most `maxBytes`, giving up after `timeoutMs` so a hook can never hang the agent.
 * The cheapest safe way is picked for what stdin is: a pipe or file is read synchronously through a non-blocking
 * second descriptor (about 0.5 ms); a socket (Node-based hosts such as Claude Code spawn hooks with socket pairs)
 * with `fs.read` (about 1.5 ms); anything else, and Windows, with `process.stdin`, whose set-up costs 4-5 ms.
 */
export async function readEvent(
  maxBytes: number,
  timeoutMs: number,
): Promise<StdinRead> {
  if (process.platform !== "win32") {
    const now = readPipeNow(maxBytes, timeoutMs);
    if (now) return now;
    if (isSocket()) return readSocket(maxBytes, timeoutMs);
  }
  return readStream(maxBytes, timeoutMs);
}

function isSocket(): boolean {
  try {
    return fstatSync(0).isSocket();
  } catch {
    return false;
  }
}

function collect(
  chunks: Buffer[],
  truncated: boolean,
  timedOut: boolean,
  readPending = false,
): StdinRead {
  return {
    text: Buffer.concat(chunks).toString("utf8"),
    truncated,
    timedOut,
    readPending,
  };
}

/** `/proc/self/fd/0` opened again with O_NONBLOCK: waits in 2 ms sleeps while no data is there. Null without `/proc`. */
function readPipeNow(maxBytes: number, timeoutMs: number): StdinRead | null {
  let fd: number;
  try {
    fd = openSync("/proc/self/fd/0", constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  const deadline = Date.now() + timeoutMs;
  const buffer = Buffer.alloc(64 * 1024);
  const chunks: Buffer[] = [];
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let size = 0;
  try {
    for (;;) {
      let count: number;
      try {
        count = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") return null;
        if (Date.now() > deadline) return collect(chunks, false, true);
        Atomics.wait(sleeper, 0, 0, 2);
        continue;
      }
      if (count === 0) return collect(chunks, false, false);
      size += count;
      if (size > maxBytes) return collect(chunks, true, false);
      chunks.push(Buffer.from(buffer.subarray(0, count)));
    }
  } finally {
    closeSync(fd);
  }
}

function readSocket(maxBytes: number, timeoutMs: number): Promise<StdinRead> {
  return new Promise((resolve) => {
    const buffer = Buffer.alloc(64 * 1024);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      resolve(collect(chunks, false, true, true));
    }, timeoutMs);
    const next = () =>
      read(0, buffer, 0, buffer.length, null, (error, count) => {
        if (settled) return;
        if (error || count === 0) {
          clearTimeout(timer);
          resolve(collect(chunks, false, false));
          return;
        }
        size += count;
        if (size > maxBytes) {
          clearTimeout(timer);
          resolve(collect(chunks, true, false));
          return;
        }
        chunks.push(Buffer.from(buffer.subarray(0, count)));
        next();
      });
    next();
  });
}

/** `process.stdin`, paused and detached when done, so an open pipe cannot keep the process alive. */
function readStream(maxBytes: number, timeoutMs: number): Promise<StdinRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (truncated: boolean, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      process.stdin.removeAllListeners();
      process.stdin.pause();
      resolve(collect(chunks, truncated, timedOut));
    };
    const timer = setTimeout(() => finish(false, true), timeoutMs);
    process.stdin.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        finish(true, false);
        return;
      }
      chunks.push(chunk);
    });
    process.stdin.on("end", () => finish(false, false));
    process.stdin.on("error", () => finish(false, false));
  });
}
