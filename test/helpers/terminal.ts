import { spawn } from "node:child_process";

export interface TerminalRun {
  /** Everything the program printed to the terminal, escape sequences removed. */
  screen: string;
  status: number | null;
}

/** What @clack/prompts draws in front of the question that is waiting for an answer. */
const WAITING_PROMPT = "\u25c6";

/**
 * Runs `command` in a real terminal (`script` from util-linux gives it a pty) and types each of `answers` the way a
 * person does: only once a question is on the screen and the program has gone quiet. Keys sent before the prompt
 * reads them are lost, so a fixed pause fails on a loaded machine.
 *
 * Each answer is typed in one go (`"y\r"` is y, then Enter, at the same question). The run is killed after
 * `limitMs`, and the screen so far is returned with a `null` status, so a test shows where a program waited.
 */
export function runInTerminal(
  command: string,
  answers: readonly string[],
  env: NodeJS.ProcessEnv,
  limitMs = 90_000,
): Promise<TerminalRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { env });
    let raw = "";
    let sinceAnswer = "";
    let index = 0;
    let quiet: NodeJS.Timeout | undefined;
    const answerWhenQuiet = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        if (index >= answers.length || child.exitCode !== null) return;
        if (!sinceAnswer.includes(WAITING_PROMPT)) return;
        sinceAnswer = "";
        child.stdin.write(answers[index++] ?? "");
      }, 300);
    };
    const take = (chunk: string) => {
      raw += chunk;
      sinceAnswer += chunk;
      answerWhenQuiet();
    };
    child.stdout.setEncoding("utf8").on("data", take);
    child.stderr.setEncoding("utf8").on("data", take);
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      clearTimeout(quiet);
      resolve({
        // eslint-disable-next-line no-control-regex
        screen: raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, ""),
        status,
      });
    });
  });
}
