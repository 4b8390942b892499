/** More alternatives than this and the word is left unexpanded (and dynamic): `{1..100000}` must stay cheap. */
const MAX_ALTERNATIVES = 64;

/** Words with more braces than this, or nested deeper, are left unexpanded; this also bounds the recursion. */
const MAX_BRACES = 64;
const MAX_DEPTH = 8;

const SEQUENCE = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/;

/**
 * Expands one brace expression as written (`{a,b}`, `{1..3}`, `{a,{b,c}}d`) the way Bash does, so
 * `rm {plan,src}/x` names `plan/x` and `src/x`. Returns null when the text holds quotes or expansions, or when it
 * would expand to too many words.
 */
export function expandBraces(text: string): string[] | null {
  if (/["'\\$`]/.test(text)) return null;
  if ((text.match(/\{/g)?.length ?? 0) > MAX_BRACES) return null;
  return expandText(text, 0);
}

function expandText(text: string, depth: number): string[] | null {
  if (depth > MAX_DEPTH) return null;
  const open = text.indexOf("{");
  if (open === -1) return [text];
  const close = matchingBrace(text, open);
  if (close === -1) return [text];
  const head = text.slice(0, open);
  const middle = alternatives(text.slice(open + 1, close), depth + 1);
  const tail = expandText(text.slice(close + 1), depth);
  if (middle === null || tail === null) return null;
  const out: string[] = [];
  for (const m of middle)
    for (const t of tail) {
      if (out.length >= MAX_ALTERNATIVES) return null;
      out.push(head + m + t);
    }
  return out;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The words one `{...}` stands for; a brace with neither a comma nor a sequence is literal. */
function alternatives(inner: string, depth: number): string[] | null {
  const sequence = SEQUENCE.exec(inner);
  if (sequence) return expandSequence(sequence[1]!, sequence[2]!, sequence[3]);
  const pieces = splitTopLevel(inner);
  if (pieces.length < 2) {
    const literal = expandText(inner, depth);
    return literal?.map((w) => `{${w}}`) ?? null;
  }
  const out: string[] = [];
  for (const piece of pieces) {
    const expanded = expandText(piece, depth);
    if (expanded === null || out.length + expanded.length > MAX_ALTERNATIVES)
      return null;
    out.push(...expanded);
  }
  return out;
}

function splitTopLevel(inner: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      pieces.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  pieces.push(inner.slice(start));
  return pieces;
}

function expandSequence(
  from: string,
  to: string,
  stepText: string | undefined,
): string[] | null {
  const numeric = /\d/.test(from) && /\d/.test(to);
  if (!numeric && (/\d/.test(from) || /\d/.test(to))) return null;
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  const step = Math.abs(Number(stepText ?? 1)) || 1;
  const count = Math.floor(Math.abs(end - start) / step) + 1;
  if (count > MAX_ALTERNATIVES) return null;
  const padded = /^-?0\d/.test(from) || /^-?0\d/.test(to);
  const width = numeric && padded ? Math.max(from.length, to.length) : 0;
  const direction = end >= start ? 1 : -1;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = start + direction * step * i;
    out.push(numeric ? pad(n, width) : String.fromCharCode(n));
  }
  return out;
}

function pad(n: number, width: number): string {
  const digits = String(Math.abs(n)).padStart(n < 0 ? width - 1 : width, "0");
  return n < 0 ? `-${digits}` : digits;
}
