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
    let first = text.indexOf(oldString);
    let old = oldString;
    let replacement = newString;
    if (first === -1) {
      // Claude Code forgives line endings and typographic quotes; a guard must not be more literal than the tool.
      const loose = normalise(text);
      old = normalise(oldString);
      first = loose.indexOf(old);
      if (first === -1)
        return { kind: "no-change", reason: "old_string is not in the file" };
      text = loose;
      replacement = normalise(newString);
    }
    if (edit["replace_all"] === true) {
      text = text.split(old).join(replacement);
    } else {
      if (text.indexOf(old, first + 1) !== -1)
        return { kind: "no-change", reason: "old_string is not unique" };
      text =
        text.slice(0, first) + replacement + text.slice(first + old.length);
    }
  }
  return text === null
    ? { kind: "no-change", reason: "no edits" }
    : { kind: "content", text };
}

function normalise(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"');
}
