import { parseDocument } from "yaml";
import type { Span } from "../model/diagnostic.ts";
import type { YamlSection } from "../model/state.ts";

/** Where in the document an edit was refused: the line and column a person goes to. */
export interface EditPlace {
  line: number;
  column: number;
}

/** The outcome of a surgical write: the new text, or why nothing was written (and where, when it is one place). */
export type EditResult =
  | { ok: true; text: string; changed: boolean }
  | { ok: false; reason: string; at?: EditPlace };

export function replaceRange(
  text: string,
  start: number,
  end: number,
  replacement: string,
): EditResult {
  const next = text.slice(0, start) + replacement + text.slice(end);
  return { ok: true, text: next, changed: next !== text };
}

export function failure(reason: string, at?: EditPlace): EditResult {
  return at
    ? { ok: false, reason, at: { line: at.line, column: at.column } }
    : { ok: false, reason };
}

export type YamlScalar = string | boolean | null;

/** A value a writer sets: a scalar, or a list of strings written in flow style (`[a, b]`, `[]`). */
export type YamlValue = YamlScalar | readonly string[];

function formatYamlValue(value: YamlValue): string {
  return Array.isArray(value)
    ? `[${value.map((item: string) => formatYamlScalar(item)).join(", ")}]`
    : formatYamlScalar(value as YamlScalar);
}

/** Formats a value as a one-line YAML scalar, quoting only when a plain scalar would read back differently. */
export function formatYamlScalar(value: YamlScalar): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (
    value !== "" &&
    !/[\n\r]/.test(value) &&
    !/^\s|\s$/.test(value) &&
    readsBackAs(value, value)
  )
    return value;
  return JSON.stringify(value);
}

/** Formats `value` in the quoting style of `previous` (a raw scalar as written in the document). */
export function formatLikePrevious(previous: string, value: string): string {
  const trimmed = previous.trim();
  if (trimmed.startsWith('"')) return JSON.stringify(value);
  if (trimmed.startsWith("'")) return `'${value.replace(/'/g, "''")}'`;
  return formatYamlScalar(value);
}

function readsBackAs(candidate: string, expected: string): boolean {
  const doc = parseDocument(`k: ${candidate}`);
  if (doc.errors.length > 0) return false;
  const value: unknown = doc.toJS();
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)["k"] === expected
  );
}

/**
 * Sets `key` in a parsed yaml section: replaces the value's bytes when the key exists, or adds a `key: value` line
 * at the end of the block. Comments, order and the other keys stay as they were.
 */
export function setYamlKey(
  text: string,
  section: YamlSection,
  key: string,
  value: YamlValue,
  eol: string,
): EditResult {
  const block = section.block;
  if (block === null)
    return failure(
      `\`## ${section.name}\` has no yaml block to write \`${key}\` into.`,
      section.span.start,
    );
  const formatted = formatYamlValue(value);
  const span: Span | undefined = section.fields[key];
  const keySpan: Span | undefined = section.keys[key];
  if (span && keySpan && Array.isArray(value)) {
    // A block list's value starts on the next line: the whole value, after the colon, becomes one flow list.
    const colon = text.indexOf(":", keySpan.end.offset);
    const current = text.slice(colon + 1, span.end.offset);
    const end = span.end.offset - (current.length - current.trimEnd().length);
    return replaceRange(
      text,
      colon + 1,
      Math.max(end, colon + 1),
      ` ${formatted}`,
    );
  }
  if (span) {
    if (span.start.offset === span.end.offset) {
      const before = text[span.start.offset - 1] === " " ? "" : " ";
      const after = text[span.start.offset] === "#" ? " " : "";
      return replaceRange(
        text,
        span.start.offset,
        span.end.offset,
        `${before}${formatted}${after}`,
      );
    }
    const current = text.slice(span.start.offset, span.end.offset);
    const next =
      typeof value === "string"
        ? formatLikePrevious(current, value)
        : formatted;
    return replaceRange(text, span.start.offset, span.end.offset, next);
  }
  const content = text.slice(block.start.offset, block.end.offset);
  if (/^\s*\{/.test(content)) {
    return failure(
      `\`## ${section.name}\` is a one-line \`{...}\` mapping; write it one key per line to add \`${key}\`, then run the command again.`,
      block.start,
    );
  }
  const needsBreak = content !== "" && !content.endsWith("\n");
  // New keys line up with the block's existing keys, or YAML would read them as another level.
  const firstKey = Object.values(section.keys)[0];
  const indent = " ".repeat(Math.max(0, (firstKey?.start.column ?? 1) - 1));
  return replaceRange(
    text,
    block.end.offset,
    block.end.offset,
    `${needsBreak ? eol : ""}${indent}${key}: ${formatted}${eol}`,
  );
}
