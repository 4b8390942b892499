import { setStateField } from "../edit/state-writers.ts";
import { setYamlKey, type EditResult } from "../edit/text-edit.ts";
import { hasYamlErrorIn } from "../edit/yaml-guard.ts";
import { parseState } from "../parse/parse-state.ts";
import { createSource } from "../parse/source.ts";
import { stateResetEdits } from "./journal.ts";

/**
 * The archive's reset of state.md (`stateResetEdits`) from one parse: whether it is already done (no playbook
 * active, `last_archived` this archive's path), and the text with every field reset as `setStateField` writes it.
 * The values are replaced from the end of the file backwards, so each edit's offsets from that parse still hold when
 * it is made. A reset that must add a key or a section, or meets a broken yaml block, is written edit by edit by
 * `setStateField`, which parses again each time (a parse of state.md per field).
 */
export function resetStateText(
  text: string,
  archivePath: string,
): { alreadyReset: boolean; result: EditResult } {
  const parsed = parseState(text, "state.md");
  const { active, lastArchived } = parsed.value.playbook;
  return {
    alreadyReset: active === null && lastArchived === archivePath,
    result: resetFields(text, archivePath, parsed),
  };
}

function resetFields(
  text: string,
  archivePath: string,
  parsed: ReturnType<typeof parseState>,
): EditResult {
  const edits = stateResetEdits(archivePath);
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
