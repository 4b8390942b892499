import { setStateField } from "../edit/state-writers.ts";
import { setYamlKey, type EditResult } from "../edit/text-edit.ts";
import { hasYamlErrorIn } from "../edit/yaml-guard.ts";
import { parseState } from "../parse/parse-state.ts";
import { createSource } from "../parse/source.ts";
import { stateResetEdits } from "./journal.ts";

/**
 * state.md with the archive's reset applied (`stateResetEdits`), as `setStateField` writes each field, from one
 * parse: the values are replaced from the end of the file backwards, so each edit's offsets from that parse still
 * hold when it is made. A reset that must add a key or a section, or meets a broken yaml block, is written edit by
 * edit by `setStateField`, which parses again each time (it costs a parse of state.md per field).
 */
export function resetStateText(text: string, archivePath: string): EditResult {
  const edits = stateResetEdits(archivePath);
  const parsed = parseState(text, "state.md");
  const placed = [];
  for (const edit of edits) {
    const section = parsed.value.sections[edit.section];
    const value = section?.fields[edit.key];
    if (
      !section ||
      !value ||
      !section.keys[edit.key] ||
      hasYamlErrorIn(parsed.diagnostics, section)
    )
      return editByEdit(text, edits);
    placed.push({ edit, section, at: value.start.offset });
  }
  const eol = createSource("state.md", text).eol;
  let current = text;
  for (const { edit, section } of placed.sort((a, b) => b.at - a.at)) {
    const result = setYamlKey(current, section, edit.key, edit.value, eol);
    if (!result.ok) return result;
    current = result.text;
  }
  return { ok: true, text: current, changed: current !== text };
}

function editByEdit(
  text: string,
  edits: ReturnType<typeof stateResetEdits>,
): EditResult {
  let current = text;
  for (const edit of edits) {
    const result = setStateField(current, edit.section, edit.key, edit.value);
    if (!result.ok) return result;
    current = result.text;
  }
  return { ok: true, text: current, changed: current !== text };
}
