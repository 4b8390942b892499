import type { StateSectionName } from "../model/state.ts";
import { parseState } from "../parse/parse-state.ts";
import { createSource } from "../parse/source.ts";
import { yamlErrorIn } from "./yaml-guard.ts";
import {
  failure,
  replaceRange,
  setYamlKey,
  type EditResult,
  type YamlValue,
} from "./text-edit.ts";

/**
 * Sets one key of a `state.md` section, e.g. `setStateField(text, "session", "last_start", "2026-11-21T10:00:00Z")`.
 * Only the value's bytes change; a missing key is added at the end of its block, a missing section at the end of
 * the file. A section whose YAML is broken is never written into.
 */
export function setStateField(
  text: string,
  section: StateSectionName,
  key: string,
  value: YamlValue,
): EditResult {
  const parsed = parseState(text, "state.md");
  const source = createSource("state.md", text);
  const found = parsed.value.sections[section];
  if (!found) {
    const needsBreak = text !== "" && !text.endsWith("\n");
    const block = `${needsBreak ? source.eol : ""}${source.eol}## ${section}${source.eol}${source.eol}\`\`\`yaml${source.eol}\`\`\`${source.eol}`;
    const withSection = replaceRange(text, text.length, text.length, block);
    if (!withSection.ok) return withSection;
    return setStateField(withSection.text, section, key, value);
  }
  const broken = yamlErrorIn(parsed.diagnostics, found);
  if (broken) {
    return failure(
      `The \`## ${section}\` yaml block of state.md is broken; fix it (see \`playbook lint\`) before writing \`${key}\`.`,
      broken,
    );
  }
  return setYamlKey(text, found, key, value, source.eol);
}
