export interface StdinRead {
  text: string;
  truncated: boolean;
  timedOut: boolean;
}

/**
 * Reads stdin up to `maxBytes`, giving up after `timeoutMs` so a hook can never hang the agent. After a time-out
 * or truncation the pipe may still be open: the caller must end the process itself. (`fs.read` on fd 0 would
 * start a little faster, but a read blocked on an open pipe sits in libuv's thread pool and `process.exit` then
 * waits for it forever.)
 */
export function readStdin(
  maxBytes: number,
  timeoutMs: number,
): Promise<StdinRead> {
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
      resolve({
        text: Buffer.concat(chunks).toString("utf8"),
        truncated,
        timedOut,
      });
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
