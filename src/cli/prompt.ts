import { createInterface } from "node:readline/promises";
import { toTerminalText } from "./print/terminal-text.ts";

/** Whether a person is at the terminal to answer questions. */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/** Shows `prompt` and reads one line; an input that ends first answers "". */
export async function askLine(
  prompt: string,
  output: NodeJS.WritableStream = process.stdout,
): Promise<string> {
  const rl = createInterface({ input: process.stdin, output });
  const closed = new Promise<string>((resolve) =>
    rl.once("close", () => resolve("")),
  );
  try {
    return await Promise.race([
      rl.question(toTerminalText(prompt.split("\n")).join("\n")),
      closed,
    ]);
  } finally {
    rl.close();
  }
}
