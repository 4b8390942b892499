import type { Colors } from "../src/cli/print/colors.ts";
import type { Actor, Step } from "./golden-path.ts";

const ACTOR_LABEL: Record<Actor, string> = {
  agent: "agent   ",
  pm: "pm      ",
  reviewer: "reviewer",
  critic: "critic  ",
  user: "you     ",
  "claude-code": "claude  ",
};

/** One step as a transcript line: verdict, actor, what happened, then what the hooks said, indented. */
export function formatStep(step: Step, c: Colors): string {
  const verdict = {
    allow: c.green("allow"),
    deny: c.red("deny "),
    block: c.yellow("block"),
    stop: c.green("stop "),
    ok: c.green(" ok  "),
    fail: c.red("FAIL "),
    missing: c.red("MISS "),
  }[step.verdict];
  const actor = c.cyan(ACTOR_LABEL[step.actor]);
  const surprise = step.expected ? "" : c.yellow("  (unexpected)");
  const detail = step.lines
    .flatMap((line) => wrapLine(line, 100))
    .map((line) => `              ${c.dim("│")} ${line}\n`);
  return `  ${verdict} ${actor} ${step.title}${surprise}\n${detail.join("")}`;
}

/** A section heading: the Golden Path step the following lines belong to. */
export function formatHeading(text: string, c: Colors): string {
  return `\n${c.bold(text)}\n`;
}

/** Breaks `line` at spaces into lines of at most `width` characters (a longer word stays whole). */
function wrapLine(line: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  lines.push(current);
  return lines;
}
