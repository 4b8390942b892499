import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";
import { didYouMean } from "../text/did-you-mean.ts";
import { plainText, type Section } from "./sections.ts";
import { spanFromNode, type Source } from "./source.ts";

/**
 * `##` sections a document does not read. A heading close to a section name is an error at its own line (what is
 * under it would be lost silently); any other is a warning when `unrelated` says how to word it, else free prose.
 * Returns the sections misspelt headings stand for, by the name they mean, so the caller can still read them there
 * (what the user meant) instead of also calling the section missing.
 */
export function reportUnknownSections(
  source: Source,
  sections: readonly Section[],
  diagnostics: Diagnostic[],
  options: {
    names: readonly string[];
    /** Other spellings that are read as a name (`final tasks`). */
    aliases?: readonly string[];
    /** The rest of the message for a heading close to no name; null: such sections are allowed prose. */
    unrelated: string | null;
  },
): Map<string, Section> {
  const misspelt = new Map<string, Section>();
  for (const section of sections) {
    if (
      options.names.includes(section.name) ||
      options.aliases?.includes(section.name)
    )
      continue;
    const heading = `## ${plainText(section.heading).trim()}`;
    const meant = didYouMean(section.name, options.names);
    if (meant === null && options.unrelated === null) continue;
    if (meant && !misspelt.has(meant)) misspelt.set(meant, section);
    diagnostics.push(
      diagnosticAt(
        source.file,
        spanFromNode(source, section.heading).start,
        "section-unknown",
        meant ? "error" : "warning",
        meant
          ? `Unexpected section \`${heading}\`, expected \`## ${meant}\`; it is read as \`## ${meant}\` until you rename the heading.`
          : `Unexpected section \`${heading}\`, ${options.unrelated}`,
      ),
    );
  }
  return misspelt;
}
