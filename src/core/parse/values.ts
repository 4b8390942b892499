import { parseDocument } from "yaml";
import {
  VALIDATION_KINDS,
  type Validation,
  type ValidationKind,
} from "../model/playbook.ts";

/**
 * Reads the value of a one-line `key: value` item. Quoted strings and flow lists are YAML; anything else is
 * taken literally, so `automated - npx foo: bar` stays one string instead of becoming a mapping.
 */
export function parseInlineValue(raw: string): string {
  const text = raw.trim();
  const simple = SIMPLE_QUOTED.exec(text);
  if (simple) return simple[1] ?? simple[2] ?? "";
  if (/^["'[{]/.test(text)) {
    const value = toPlainValue(text);
    if (typeof value === "string") return value;
  }
  return text;
}

// Quoted strings with no escapes read the same in YAML and here; skipping the YAML parser keeps 1,000 subtasks fast.
const SIMPLE_QUOTED = /^"([^"\\]*)"$|^'([^']*)'$/;
const SIMPLE_FLOW_LIST = /^\[([^[\]{}"'#&*!|>%@`]*)\]$/;

/** Reads `[]`, `[p1, p2]`, `p1, p2`, `none` or `-` as a list of ids. */
export function parseInlineList(raw: string): string[] {
  const text = raw.replace(/`/g, "").trim();
  if (text === "" || /^(none|-|—|なし|없음)$/i.test(text)) return [];
  const simple = SIMPLE_FLOW_LIST.exec(text);
  if (simple) return splitList(simple[1] ?? "");
  if (text.startsWith("[")) {
    const value = toPlainValue(text);
    if (Array.isArray(value))
      return value.filter((v) => v !== null).map((v) => String(v).trim());
    return splitList(text.replace(/^\[|\]$/g, ""));
  }
  return splitList(text);
}

/** A one-line YAML value, or undefined when it does not parse (or expands aliases too far). */
function toPlainValue(text: string): unknown {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return undefined;
  try {
    return doc.toJS() as unknown;
  } catch {
    return undefined;
  }
}

function splitList(text: string): string[] {
  return text
    .split(/[,、]/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

const RESULT_PREFIX = /^(PASS|FAIL)\b\s*(?:[-:—]\s*)?/i;
const KIND_PREFIX = new RegExp(
  `^(${VALIDATION_KINDS.join("|")})\\b\\s*(?:[-:—]\\s*)?`,
  "i",
);

/** Splits `"[PASS - ]automated - npx tsc --noEmit"` into result, kind and text. */
export function parseValidationValue(value: string): Omit<Validation, "span"> {
  let rest = value.trim();
  let result: Validation["result"] = null;
  const resultMatch = RESULT_PREFIX.exec(rest);
  if (resultMatch) {
    result = (resultMatch[1] ?? "").toUpperCase() as "PASS" | "FAIL";
    rest = rest.slice(resultMatch[0].length);
  }
  let kind: ValidationKind = "unspecified";
  const kindMatch = KIND_PREFIX.exec(rest);
  if (kindMatch) {
    kind = (kindMatch[1] ?? "").toLowerCase() as ValidationKind;
    rest = rest.slice(kindMatch[0].length);
  }
  return { kind, text: rest.trim(), result };
}

/** The inverse of {@link parseValidationValue}. */
export function formatValidationValue(
  validation: Omit<Validation, "span">,
): string {
  const parts: string[] = [];
  if (validation.result) parts.push(validation.result);
  if (validation.kind !== "unspecified") parts.push(validation.kind);
  if (validation.text !== "") parts.push(validation.text);
  return parts.join(" - ");
}

/**
 * The value at the start of `raw` (the text after `key:`), without a trailing `# comment` or `<!-- comment -->`
 * and without trailing spaces: quoted strings end at their closing quote, flow lists at their closing bracket.
 * Writers replace exactly this, so a comment after a value survives every write.
 */
export function valueExtent(raw: string): string {
  const first = raw[0];
  let end = -1;
  if (first === '"' || first === "'") end = closingQuote(raw, first);
  else if (first === "[" || first === "{") end = closingBracket(raw);
  if (end !== -1) return raw.slice(0, end + 1);
  const comment = raw.search(/\s#|<!--/);
  return (comment === -1 ? raw : raw.slice(0, comment)).trimEnd();
}

function closingQuote(raw: string, quote: string): number {
  for (let i = 1; i < raw.length; i++) {
    if (quote === '"' && raw[i] === "\\") i++;
    else if (raw[i] === quote) {
      if (quote === "'" && raw[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

function closingBracket(raw: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (quote !== null) {
      if (ch === "\\" && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "[" || ch === "{") depth++;
    else if ((ch === "]" || ch === "}") && --depth === 0) return i;
  }
  return -1;
}
