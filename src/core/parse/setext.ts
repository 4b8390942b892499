import type { Root } from "mdast";
import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";
import { findSetextHeadings, plainText } from "./sections.ts";
import { spanFromNode, type Source } from "./source.ts";

/** Reports lines that markdown turned into headings because `---` or `===` follows them directly. */
export function reportSetextHeadings(
  source: Source,
  root: Root,
  diagnostics: Diagnostic[],
): void {
  for (const heading of findSetextHeadings(root)) {
    const text = plainText(heading).split("\n").at(-1) ?? "";
    diagnostics.push(
      diagnosticAt(
        source.file,
        spanFromNode(source, heading).start,
        "setext-heading",
        "warning",
        `Unexpected underline right under "${text.length > 40 ? `${text.slice(0, 37)}...` : text}", which makes it a heading, expected a blank line before \`---\`. Add an empty line above the \`---\`.`,
      ),
    );
  }
}
