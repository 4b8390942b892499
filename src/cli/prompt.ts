import { confirm, isCancel, select, text } from "@clack/prompts";
import { createInterface } from "node:readline/promises";
import { PlaybookError } from "../core/errors.ts";
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

/** A person leaving a prompt (Ctrl-C, Escape, end of input) stops the command before it changes anything. */
function answered<T>(value: T | symbol): T {
  if (isCancel(value) || typeof value === "symbol")
    throw new PlaybookError("E_USAGE", "Cancelled at the prompt.", {
      hint: "Nothing was changed. Run the command again to answer, or pass the answers as options.",
    });
  return value;
}

/** One of `choices`, picked with the arrow keys: nothing else can be answered. */
export async function askChoice(
  message: string,
  choices: readonly { value: string; hint: string }[],
  initial: string,
): Promise<string> {
  return answered<string>(
    await select<string>({
      message,
      options: choices.map((choice) => ({
        value: choice.value,
        label: choice.value,
        hint: choice.hint,
      })),
      initialValue: initial,
    }),
  );
}

/** A line of text; an empty answer takes `fallback`. */
export async function askText(
  message: string,
  fallback: string,
): Promise<string> {
  const value = answered<string>(
    await text({
      message,
      placeholder: fallback || "none",
      defaultValue: fallback,
    }),
  ).trim();
  return value === "" ? fallback : value;
}

/** Yes or no. */
export async function askYesNo(
  message: string,
  initial: boolean,
): Promise<boolean> {
  return answered<boolean>(await confirm({ message, initialValue: initial }));
}
