import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";
import type { Section } from "./sections.ts";
import { spanFromNode, type Source } from "./source.ts";

/** The first section named one of `names`; every later one is reported as a duplicate that is not read. */
export function findSection(
  source: Source,
  sections: readonly Section[],
  names: readonly string[],
  diagnostics: Diagnostic[],
): Section | undefined {
  const matches = sections.filter((section) => names.includes(section.name));
  for (const duplicate of matches.slice(1)) {
    diagnostics.push(
      diagnosticAt(
        source.file,
        spanFromNode(source, duplicate.heading).start,
        "section-duplicate",
        "error",
        `Unexpected second \`## ${duplicate.name}\` section, expected one; only the first is read. Merge the two sections.`,
      ),
    );
  }
  return matches[0];
}
