/**
 * Control characters, the line and paragraph separators, and the bidirectional embeddings, overrides and isolates
 * that make text show in another order than it is (U+202A-U+202E, U+2066-U+2069).
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One line of plain text: every line break a space, every invisible or reordering character shown as `�`. */
function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\t]/g, " ").replace(INVISIBLE, "\ufffd");
}

/**
 * `text` (written by the agent: a criterion, a phase name, the critic's evidence) as literal markdown inline text, on
 * one line, safe in a table cell: every character markdown or GFM gives a meaning is escaped (backslash escapes,
 * and entities for `<`, `>` and `&`, so no HTML, comment or entity of its own can hide what follows), and `@` before
 * a name gets a zero-width space so it mentions nobody. Cut to `max` characters.
 */
export function markdownText(text: string, max = 300): string {
  return cut(oneLine(text), max)
    .replace(/[\\`*_[\]|~!#]/g, "\\$&")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@(?=[A-Za-z0-9])/g, "@\u200b");
}

/**
 * `text` as one code span, on one line, for a GFM table cell: its fence is longer than any run of backticks in it,
 * and `|` is escaped (GFM removes the escape before it reads the span). Cut to `max` characters.
 */
export function markdownCode(text: string, max = 200): string {
  const line = cut(oneLine(text), max).replace(/\|/g, "\\|");
  if (line.trim() === "") return "";
  const longest = Math.max(
    0,
    ...[...line.matchAll(/`+/g)].map((m) => m[0].length),
  );
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** At most `max` characters (UTF-16 units), never ending in half a surrogate pair; `…` marks a cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** A piece of a markdown document: whole lines, and the subtask they show, if any. */
export interface MarkdownPiece {
  text: string;
  subtask?: string;
}

/**
 * The pieces joined by line breaks, no longer than `limit` as `measure` counts (characters for a pull request body,
 * UTF-8 bytes for a job summary). What does not fit is left out at the end of a whole piece, never inside one, and
 * `note` (given how many subtasks were left out) says so in its own paragraph.
 */
export function fitMarkdown(
  pieces: readonly MarkdownPiece[],
  limit: number,
  measure: (text: string) => number,
  note: (hiddenSubtasks: number) => string,
): string {
  const whole = pieces.map((p) => p.text).join("\n");
  if (measure(whole) <= limit) return whole;
  const reserve =
    measure(`\n\n${note(pieces.filter((p) => p.subtask).length)}`) + 1;
  const shown: string[] = [];
  let used = 0;
  for (const piece of pieces) {
    const size = measure(piece.text) + (shown.length > 0 ? 1 : 0);
    if (used + size > limit - reserve) break;
    shown.push(piece.text);
    used += size;
  }
  const at = shown.length;
  const hidden = new Set(
    pieces.slice(at).flatMap((p) => (p.subtask ? [p.subtask] : [])),
  ).size;
  // A blank line first: a line right after a table would be read as one more row of it.
  return `${shown.join("\n")}\n\n${note(hidden)}`;
}
