import { spawn } from "node:child_process";

export interface TerminalRun {
  /** Everything the program printed to the terminal, escape sequences removed. */
  screen: string;
  status: number | null;
}

/**
 * Runs `command` in a real terminal (`script` from util-linux gives it a pty) and types each of `keys` after a pause,
 * as a person answering prompts one at a time would.
 */
export function runInTerminal(
  command: string,
  keys: readonly string[],
  env: NodeJS.ProcessEnv,
  pauseMs = 700,
): Promise<TerminalRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { env });
    let raw = "";
    child.stdout
      .setEncoding("utf8")
      .on("data", (chunk: string) => (raw += chunk));
    child.stderr
      .setEncoding("utf8")
      .on("data", (chunk: string) => (raw += chunk));
    let index = 0;
    const typeNext = () => {
      if (index >= keys.length || child.exitCode !== null) return;
      child.stdin.write(keys[index++] ?? "");
      setTimeout(typeNext, pauseMs);
    };
    setTimeout(typeNext, pauseMs * 2);
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({
        // eslint-disable-next-line no-control-regex
        screen: raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, ""),
        status,
      });
    });
  });
}
