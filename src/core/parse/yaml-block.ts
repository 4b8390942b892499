import { isMap, isScalar, parseDocument } from "yaml";
import type { Diagnostic, Span } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import { lineText, pointAt, spanOf, type Source } from "./source.ts";

export interface YamlBlock {
  /** The parsed value, or undefined when the YAML has errors. */
  data: unknown;
  block: Span;
  contentStart: number;
  contentEnd: number;
  /** Span of each top-level key's value (or of the key, when the value is empty). */
  fields: Record<string, Span>;
}

const FENCE_LINE = /^\s*(`{3,}|~{3,}|-{3,})\s*$/;

/**
 * Locates the content between the fences of a fenced block or frontmatter node that starts at `start` and ends at
 * `end` (offsets in `source.text`), and reports an unclosed fence.
 */
export function locateFencedContent(
  source: Source,
  start: number,
  end: number,
  where: string,
  diagnostics: Diagnostic[],
): { contentStart: number; contentEnd: number } {
  const firstBreak = source.text.indexOf("\n", start);
  if (firstBreak === -1 || firstBreak >= end) {
    return { contentStart: end, contentEnd: end };
  }
  const contentStart = firstBreak + 1;
  const endPoint = pointAt(source, end);
  const lastLine = lineText(source, endPoint.line);
  const lastLineStart = source.lineStarts[endPoint.line - 1] ?? end;
  if (lastLineStart >= contentStart && FENCE_LINE.test(lastLine)) {
    return { contentStart, contentEnd: lastLineStart };
  }
  const at = pointAt(source, start);
  diagnostics.push(
    diagnosticAt(
      source.file,
      at,
      "fence-unclosed",
      "error",
      `Unexpected end of file inside the ${where} block, expected a closing fence. Add a line with \`\`\` after the block.`,
    ),
  );
  return { contentStart, contentEnd: end };
}

/**
 * Parses the YAML between `contentStart` and `contentEnd`. YAML errors are reported at their line in the
 * markdown file, not inside the block.
 */
export function parseYamlBlock(
  source: Source,
  contentStart: number,
  contentEnd: number,
  where: string,
  diagnostics: Diagnostic[],
): YamlBlock {
  const text = source.text.slice(contentStart, contentEnd);
  const block = spanOf(source, contentStart, contentEnd);
  const fields: Record<string, Span> = {};
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const at = pointAt(
        source,
        contentStart + errorOffset(text, error.pos[0]),
      );
      diagnostics.push(
        diagnosticAt(
          source.file,
          at,
          "yaml-syntax",
          "error",
          `Unexpected YAML in the ${where} block (${describeYamlError(error.message)}), expected valid YAML. Fix this line; the format is in plan/template/playbook-format.md.`,
        ),
      );
    }
    return { data: undefined, block, contentStart, contentEnd, fields };
  }
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (
        !isScalar(pair.key) ||
        pair.key.range === undefined ||
        pair.key.range === null
      )
        continue;
      const key = String(pair.key.value);
      const value = pair.value as {
        range?: [number, number, number] | null;
      } | null;
      const range = value?.range ?? [pair.key.range[0], pair.key.range[1]];
      fields[key] = spanOf(
        source,
        contentStart + range[0],
        contentStart + range[1],
      );
    }
  }
  return {
    data: doc.toJS() as unknown,
    block,
    contentStart,
    contentEnd,
    fields,
  };
}

/** Errors found at the end of the block belong to its last non-blank line, not to the closing fence. */
function errorOffset(text: string, pos: number): number {
  if (pos < text.trimEnd().length) return pos;
  const trimmed = text.trimEnd();
  return trimmed.lastIndexOf("\n") + 1;
}

function describeYamlError(message: string): string {
  const first = message.split("\n")[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?\s*$/, "").trim();
}
