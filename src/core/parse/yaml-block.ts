import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import type { Diagnostic, Span } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import type { ChunkCache } from "./chunk-tree.ts";
import { lineText, pointAt, spanOf, type Source } from "./source.ts";
import {
  cachedYamlReading,
  storeYamlReading,
  type YamlBlockReading,
} from "./yaml-block-cache.ts";

export interface YamlBlock {
  /** The parsed value, or undefined when the YAML has errors. */
  data: unknown;
  block: Span;
  contentStart: number;
  contentEnd: number;
  /** Span of each top-level key's value (or of the key, when the value is empty). */
  fields: Record<string, Span>;
  /** Span of each top-level key. */
  keys: Record<string, Span>;
  /** Spans of the items of each top-level key whose value is a list. */
  items: Record<string, Span[]>;
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
 * markdown file, not inside the block; `formatDoc` is the template that shows the expected block. `cache` (the
 * document's chunk cache) keeps the reading of a block that parsed cleanly, so an unchanged block is not parsed again.
 */
export function parseYamlBlock(
  source: Source,
  contentStart: number,
  contentEnd: number,
  where: string,
  formatDoc: string,
  diagnostics: Diagnostic[],
  cache?: ChunkCache,
): YamlBlock {
  const text = source.text.slice(contentStart, contentEnd);
  const result: YamlBlock = {
    data: undefined,
    block: spanOf(source, contentStart, contentEnd),
    contentStart,
    contentEnd,
    fields: {},
    keys: {},
    items: {},
  };
  const stored = cache ? cachedYamlReading(cache, text) : null;
  if (stored) return withReading(source, result, stored);
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const offset = /quote/i.test(error.message)
        ? (findUnclosedQuote(text, error.pos[0]) ??
          errorOffset(text, error.pos[0]))
        : errorOffset(text, error.pos[0]);
      diagnostics.push(
        diagnosticAt(
          source.file,
          pointAt(source, contentStart + offset),
          "yaml-syntax",
          "error",
          `Unexpected YAML in the ${where} block (${describeYamlError(error.code, error.message)}), expected valid YAML. Fix this line; ${formatDoc} shows the expected block.`,
        ),
      );
    }
    return result;
  }
  const reading: YamlBlockReading = {
    data: undefined,
    keys: {},
    fields: {},
    items: {},
  };
  const range = (r: readonly number[]): [number, number] => [
    r[0] ?? 0,
    r[1] ?? 0,
  ];
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (!isScalar(pair.key) || !pair.key.range) continue;
      const key = String(pair.key.value);
      reading.keys[key] = range(pair.key.range);
      const value = pair.value as {
        range?: [number, number, number] | null;
      } | null;
      reading.fields[key] = range(value?.range ?? pair.key.range);
      if (isSeq(pair.value)) {
        reading.items[key] = pair.value.items.flatMap((item) => {
          const itemRange = (
            item as { range?: [number, number, number] | null } | null
          )?.range;
          return itemRange ? [range(itemRange)] : [];
        });
      }
    }
  }
  try {
    reading.data = doc.toJS() as unknown;
  } catch (error) {
    // toJS throws when aliases expand past yaml's limit (a "billion laughs" block) or refer to nothing.
    diagnostics.push(
      diagnosticAt(
        source.file,
        pointAt(source, contentStart),
        "yaml-syntax",
        "error",
        `Unexpected YAML in the ${where} block (${error instanceof Error ? error.message.split("\n")[0] : String(error)}), expected plain values without anchors and aliases. Write the values out; ${formatDoc} shows the expected block.`,
      ),
    );
    return withReading(source, result, { ...reading, data: undefined });
  }
  if (cache) storeYamlReading(cache, text, reading);
  return withReading(source, result, reading);
}

/** `block` with the reading's value and its ranges as spans of the document. */
function withReading(
  source: Source,
  block: YamlBlock,
  reading: YamlBlockReading,
): YamlBlock {
  const span = ([start, end]: [number, number]) =>
    spanOf(source, block.contentStart + start, block.contentStart + end);
  for (const [key, r] of Object.entries(reading.keys))
    block.keys[key] = span(r);
  for (const [key, r] of Object.entries(reading.fields))
    block.fields[key] = span(r);
  for (const [key, list] of Object.entries(reading.items))
    block.items[key] = list.map(span);
  block.data = reading.data;
  return block;
}

/** Errors found at the end of the block belong to its last non-blank line, not to the closing fence. */
function errorOffset(text: string, pos: number): number {
  const trimmed = text.trimEnd();
  if (pos < trimmed.length) return pos;
  return trimmed.lastIndexOf("\n") + 1;
}

/**
 * The yaml package reports an unclosed quote where the block ends; the user needs the line that opened it: the
 * last value before `pos` that starts with a quote not closed on its own line.
 */
function findUnclosedQuote(text: string, pos: number): number | null {
  let found: number | null = null;
  let lineStart = 0;
  for (const line of text.slice(0, Math.max(pos, 1)).split("\n")) {
    const match = /^(\s*(?:-\s+)?(?:[^\s"'#][^:#]*:\s+)?)(["'])(.*)$/.exec(
      line.replace(/\r$/, ""),
    );
    if (match) {
      const quote = match[2] ?? '"';
      const rest = match[3] ?? "";
      const closed =
        quote === '"'
          ? /(^|[^\\])(\\\\)*"/.test(rest)
          : /'(?!')/.test(rest.replace(/''/g, ""));
      if (!closed) found = lineStart + (match[1] ?? "").length;
    }
    lineStart += line.length + 1;
  }
  return found;
}

function describeYamlError(code: string, message: string): string {
  if (code === "MULTIPLE_DOCS")
    return "a `---` line inside the block starts a second YAML document";
  const first = message.split("\n")[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?\s*$/, "").trim();
}
