/** What a file-editing tool call would leave on disk, computed before the call runs. */
export type SimulatedEdit =
  | { kind: "content"; text: string }
  /** The tool itself will fail (old_string not found or not unique): nothing changes. */
  | { kind: "no-change"; reason: string }
  /** The input is not a file edit we understand. */
  | { kind: "unknown"; reason: string };

/**
 * Applies Edit (`old_string` → `new_string`, once or with `replace_all`), Write (`content`) or the legacy MultiEdit
 * (`edits[]` in order) to `before` (null: the file does not exist yet), the way Claude Code does.
 */
export function simulateToolEdit(
  tool: string,
  input: Record<string, unknown>,
  before: string | null,
): SimulatedEdit {
  if (tool === "Write") {
    const content = input["content"];
    return typeof content === "string"
      ? { kind: "content", text: content }
      : { kind: "unknown", reason: "Write without a string `content`" };
  }
  if (tool === "Edit") return applyEdits(before, [input]);
  if (tool === "MultiEdit") {
    const edits = input["edits"];
    if (!Array.isArray(edits))
      return { kind: "unknown", reason: "MultiEdit without an `edits` list" };
    return applyEdits(before, edits as Record<string, unknown>[]);
  }
  return { kind: "unknown", reason: `${tool} is not a text edit` };
}

function applyEdits(
  before: string | null,
  edits: readonly Record<string, unknown>[],
): SimulatedEdit {
  let text = before;
  for (const edit of edits) {
    const oldString = edit["old_string"];
    const newString = edit["new_string"];
    if (typeof oldString !== "string" || typeof newString !== "string")
      return {
        kind: "unknown",
        reason: "an edit without string `old_string`/`new_string`",
      };
    if (text === null) {
      // Claude Code creates a missing file when old_string is empty.
      if (oldString === "") {
        text = newString;
        continue;
      }
      return { kind: "no-change", reason: "the file does not exist" };
    }
    if (oldString === "") {
      if (text !== "")
        return { kind: "no-change", reason: "old_string is empty" };
      text = newString;
      continue;
    }
    const match = findMatches(text, oldString, newString);
    if (!match)
      return { kind: "no-change", reason: "old_string is not in the file" };
    if (match.at.length > 1 && edit["replace_all"] !== true)
      return { kind: "no-change", reason: "old_string is not unique" };
    let result = "";
    let from = 0;
    for (const at of match.at) {
      result += text.slice(from, at) + match.replacement;
      from = at + match.length;
    }
    text = result + text.slice(from);
  }
  return text === null
    ? { kind: "no-change", reason: "no edits" }
    : { kind: "content", text };
}

/**
 * Where `oldString` occurs, the way Claude Code forgives differences: exactly; with the file's CRLF line endings;
 * or with typographic quotes read as straight ones. Quote folding maps one character to one, so positions found in
 * the folded text are positions in the file, and the rest of the file keeps its bytes (a guard must not be more
 * literal than the tool, nor see changes the tool would not make).
 */
function findMatches(
  text: string,
  oldString: string,
  newString: string,
): { at: number[]; length: number; replacement: string } | null {
  const crlf = text.includes("\r\n");
  const toCrlf = (value: string) => value.replace(/\r?\n/g, "\r\n");
  const variants: [string, string][] = [[oldString, newString]];
  if (crlf) variants.push([toCrlf(oldString), toCrlf(newString)]);
  for (const fold of [false, true]) {
    const haystack = fold ? foldQuotes(text) : text;
    for (const [old, replacement] of variants) {
      const needle = fold ? foldQuotes(old) : old;
      const at: number[] = [];
      for (
        let i = haystack.indexOf(needle);
        i !== -1;
        i = haystack.indexOf(needle, i + needle.length)
      )
        at.push(i);
      if (at.length > 0) return { at, length: needle.length, replacement };
    }
  }
  return null;
}

function foldQuotes(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"');
}
