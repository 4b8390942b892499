import type { Diagnostic } from "../model/diagnostic.ts";
import type { YamlSection } from "../model/state.ts";

/** The first YAML error inside `section`, or undefined: such a block is never written into. */
export function yamlErrorIn(
  diagnostics: readonly Diagnostic[],
  section: YamlSection,
): Diagnostic | undefined {
  return diagnostics.find(
    (d) =>
      (d.code === "yaml-syntax" ||
        d.code === "yaml-not-mapping" ||
        d.code === "fence-unclosed") &&
      d.line >= section.span.start.line &&
      d.line <= section.span.end.line,
  );
}

/** Whether a YAML error lies inside `section`. */
export function hasYamlErrorIn(
  diagnostics: readonly Diagnostic[],
  section: YamlSection,
): boolean {
  return yamlErrorIn(diagnostics, section) !== undefined;
}
