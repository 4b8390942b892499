import type { Diagnostic } from "../model/diagnostic.ts";
import type { YamlSection } from "../model/state.ts";

/** Whether a YAML error lies inside `section`: such a block is never written into. */
export function hasYamlErrorIn(
  diagnostics: readonly Diagnostic[],
  section: YamlSection,
): boolean {
  return diagnostics.some(
    (d) =>
      (d.code === "yaml-syntax" ||
        d.code === "yaml-not-mapping" ||
        d.code === "fence-unclosed") &&
      d.line >= section.span.start.line &&
      d.line <= section.span.end.line,
  );
}
