/** One verdict the critic gave in its final message. */
export interface CriticVerdict {
  phase: string;
  verdict: "PASS" | "FAIL";
  evidence: string;
}

export interface VerdictBlocks {
  verdicts: CriticVerdict[];
  /** One message per unusable block, saying what is missing or wrong. */
  problems: string[];
}

const INFO_WORDS: ReadonlySet<string> = new Set(["verdict", "crit"]);
const FIELDS = ["phase", "verdict", "evidence"] as const;

/**
 * Reads the fenced blocks with the info string `verdict` (or `crit`) in the critic's final message. Each holds a
 * flat YAML mapping: `phase: p1`, `verdict: PASS` (or FAIL, any case) and `evidence: ...` (plain, quoted, `|` or `>`
 * block, or indented continuation lines). Other fenced blocks are skipped, also when they contain a verdict fence.
 * Never throws: a block with a missing or wrong field becomes a problem naming it.
 *
 * The mapping is read by a small reader of that subset rather than the `yaml` package, which would triple the size
 * of the hook bundle that calls this on SubagentStop.
 */
export function parseVerdictBlocks(message: string): VerdictBlocks {
  const result: VerdictBlocks = { verdicts: [], problems: [] };
  findVerdictBlocks(message).forEach((lines, index) => {
    const read = readBlock(lines, index + 1);
    if ("verdict" in read) result.verdicts.push(read.verdict);
    else result.problems.push(read.problem);
  });
  return result;
}

const OPENING = /^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;

/** The content lines of every verdict fence, in order; an unclosed fence runs to the end of the message. */
function findVerdictBlocks(message: string): string[][] {
  const lines = message.split(/\r\n|\r|\n/);
  const blocks: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i] ?? "");
    if (!open) continue;
    const indent = (open[1] ?? "").length;
    const fence = open[2] ?? "```";
    const isVerdict = INFO_WORDS.has((open[3] ?? "").toLowerCase());
    const content: string[] = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i] ?? "";
      if (isClosing(line, fence)) break;
      content.push(line.replace(new RegExp(`^ {0,${indent}}`), ""));
    }
    if (isVerdict) blocks.push(content);
  }
  return blocks;
}

function isClosing(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  const run = match?.[1] ?? "";
  return run[0] === fence[0] && run.length >= fence.length;
}

function readBlock(
  lines: readonly string[],
  n: number,
): { verdict: CriticVerdict } | { problem: string } {
  const read = readFlatMapping(lines);
  if ("problem" in read)
    return {
      problem: `Unexpected ${read.problem} in verdict block ${n}, expected only \`phase:\`, \`verdict:\` and \`evidence:\` lines.`,
    };
  const values = read.values;
  const missing = FIELDS.filter((field) => !values.get(field));
  if (missing.length > 0)
    return {
      problem: `Unexpected verdict block ${n} without ${missing.map((f) => `\`${f}\``).join(", ")}, expected \`phase\`, \`verdict\` (PASS or FAIL) and \`evidence\`.`,
    };
  const verdict = (values.get("verdict") ?? "").toUpperCase();
  if (verdict !== "PASS" && verdict !== "FAIL")
    return {
      problem: `Unexpected \`verdict: ${values.get("verdict") ?? ""}\` in verdict block ${n}, expected PASS or FAIL.`,
    };
  return {
    verdict: {
      phase: values.get("phase") ?? "",
      verdict,
      evidence: values.get("evidence") ?? "",
    },
  };
}

const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const BLOCK_INDICATOR = /^([|>])[+-]?\d*[ \t]*(?:#.*)?$/;

/**
 * A flat `key: value` mapping; a value may continue on the following indented lines. Empty, `null` and `~` values
 * are absent. Returns the first problem instead when a line is not part of such a mapping or a key repeats.
 */
function readFlatMapping(
  lines: readonly string[],
): { values: Map<string, string> } | { problem: string } {
  const values = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (
      line.trim() === "" ||
      /^\s*#/.test(line) ||
      /^(---|\.\.\.)\s*$/.test(line)
    )
      continue;
    const match = KEY_LINE.exec(line);
    if (!match) return { problem: `line \`${shorten(line.trim())}\`` };
    const key = (match[1] ?? "").toLowerCase();
    const more: string[] = [];
    while (i + 1 < lines.length && /^(\s|$)/.test(lines[i + 1] ?? ""))
      more.push(lines[++i] ?? "");
    if (values.has(key)) return { problem: `second \`${key}:\`` };
    const value = scalar((match[2] ?? "").trim(), more);
    if (value !== null) values.set(key, value);
  }
  return { values };
}

function scalar(raw: string, more: readonly string[]): string | null {
  let value: string;
  const block = BLOCK_INDICATOR.exec(raw);
  if (block) value = blockScalar(block[1] === ">", more);
  else if (raw === "") value = dedent(more).join("\n").trim();
  else {
    const joined = [
      raw,
      ...more.map((l) => l.trim()).filter((l) => l !== ""),
    ].join(" ");
    value = raw.startsWith('"')
      ? doubleQuoted(joined)
      : raw.startsWith("'")
        ? singleQuoted(joined)
        : joined.replace(/[ \t]+#.*$/, "");
  }
  value = value.trim();
  return value === "" || value === "~" || value === "null" ? null : value;
}

function blockScalar(folded: boolean, more: readonly string[]): string {
  const lines = dedent(more);
  if (!folded) return lines.join("\n");
  return lines
    .join("\n")
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.replace(/\n/g, " "))
    .join("\n");
}

/** Removes the smallest indentation of the non-blank lines, and trailing blank lines. */
function dedent(lines: readonly string[]): string[] {
  const indents = lines
    .filter((l) => l.trim() !== "")
    .map((l) => (/^[ \t]*/.exec(l)?.[0] ?? "").length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  const out = lines.map((l) => l.slice(cut).trimEnd());
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

function doubleQuoted(text: string): string {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') {
      try {
        return JSON.parse(text.slice(0, i + 1)) as string;
      } catch {
        return text.slice(1, i);
      }
    }
  }
  return text.slice(1);
}

function singleQuoted(text: string): string {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "'") {
      if (text[i + 1] === "'") i++;
      else return text.slice(1, i).replace(/''/g, "'");
    }
  }
  return text.slice(1).replace(/''/g, "'");
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
