import type { Point, Span } from "../model/diagnostic.ts";

/**
 * A document's text with fast offset-to-position lookups. A leading BOM is kept in `text` (writers must preserve
 * it) but excluded from `body`, which is what the markdown parser sees; offsets in spans refer to `text`.
 */
export interface Source {
  file: string;
  text: string;
  body: string;
  bomLength: number;
  eol: "\n" | "\r\n";
  lineStarts: number[];
}

export function createSource(file: string, text: string): Source {
  const bomLength = text.startsWith("\uFEFF") ? 1 : 0;
  const lineStarts = [0];
  // indexOf, not a loop over every character: this runs before the JIT has warmed up.
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1))
    lineStarts.push(at + 1);
  const firstNewline = text.indexOf("\n");
  const eol =
    firstNewline > 0 && text[firstNewline - 1] === "\r" ? "\r\n" : "\n";
  return {
    file,
    text,
    body: text.slice(bomLength),
    bomLength,
    eol,
    lineStarts,
  };
}

/** Position of an offset into `source.text`. Columns count UTF-16 units from 1, as editors and mdast do. */
export function pointAt(source: Source, offset: number): Point {
  const starts = source.lineStarts;
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  const lineStart = starts[low] ?? 0;
  const bomShift = low === 0 ? source.bomLength : 0;
  return { line: low + 1, column: offset - lineStart - bomShift + 1, offset };
}

export function spanOf(source: Source, start: number, end: number): Span {
  return { start: pointAt(source, start), end: pointAt(source, end) };
}

/** What the parsers' nodes carry of their place: mdast's position, offsets relative to `body`. */
interface Positioned {
  position?:
    | {
        start: { offset?: number | undefined };
        end: { offset?: number | undefined };
      }
    | undefined;
}

/** Converts an mdast position (offsets relative to `body`) into a span over `text`. */
export function spanFromNode(source: Source, node: Positioned): Span {
  const { start, end } = offsetsOf(source, node);
  return spanOf(source, start, end);
}

/** The offsets in `source.text` where an mdast node starts and ends: `spanFromNode` without lines and columns. */
export function offsetsOf(
  source: Source,
  node: Positioned,
): { start: number; end: number } {
  return {
    start: (node.position?.start.offset ?? 0) + source.bomLength,
    end: (node.position?.end.offset ?? 0) + source.bomLength,
  };
}

/** Offset in `text` where the line holding `offset` ends (before its line break). */
export function lineEndAt(source: Source, offset: number): number {
  let end = source.text.indexOf("\n", offset);
  if (end === -1) end = source.text.length;
  if (end > 0 && source.text[end - 1] === "\r") end -= 1;
  return Math.max(end, offset);
}

/** The text of 1-based line `line`, without its line break. */
export function lineText(source: Source, line: number): string {
  const start = source.lineStarts[line - 1];
  if (start === undefined) return "";
  return source.text.slice(start, lineEndAt(source, start));
}
