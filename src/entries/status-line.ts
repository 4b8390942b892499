import { fstatSync, writeSync } from "node:fs";
import { runStatusLine } from "../app/hook/events/status-line.ts";
import { summarizeLazily } from "./lazy-bundles.ts";
import { readEvent, STDIN_TIMEOUT_MS } from "./read-stdin.ts";

/**
 * `node dist/hook.cjs statusline` (and `playbook statusline`): Claude Code's status line JSON on stdin, one line on
 * stdout. Whatever goes wrong, the line says so briefly instead of failing: a blank status line helps nobody.
 */
export async function statusLineMain(projectDir?: string): Promise<void> {
  // A person at a terminal has no JSON to give: do not wait for it. A terminal is a character device, as /dev/null
  // is, and Claude Code writes a pipe or a socket. (Not `isatty`: node:tty loads the stream modules, about 3 ms of
  // every session event, whose bundle this is part of; not process.stdin, which would put the pipe Claude Code writes
  // into non-blocking mode before it is read.)
  const input = isCharacterDevice(0)
    ? { text: "", readPending: false }
    : await readEvent(1024 * 1024, STDIN_TIMEOUT_MS);
  let json: unknown;
  try {
    json = input.text.trim() === "" ? {} : JSON.parse(input.text);
  } catch {
    json = {};
  }
  let line: string;
  try {
    // An empty CLAUDE_PROJECT_DIR is as good as none.
    line = runStatusLine(
      json,
      projectDir ?? (process.env["CLAUDE_PROJECT_DIR"] || undefined),
      {
        summarizeFor: summarizeLazily,
        color: useColor(),
      },
    );
  } catch (error) {
    line = `playbook: status unavailable (${error instanceof Error ? error.message : String(error)})`;
  }
  writeSync(1, `${line}\n`);
  if (input.readPending) process.kill(process.pid, "SIGKILL");
}

function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/** Claude Code renders ANSI in the status line; NO_COLOR or FORCE_COLOR=0 turn it off. */
function useColor(): boolean {
  const force = process.env["FORCE_COLOR"];
  if (process.env["NO_COLOR"]) return false;
  return !(force === "0" || force === "false");
}
