import type { StampSlot, StateSummary } from "../model/summary.ts";

/** The timestamps playbook writes: plain YAML scalars that read back as the same string. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

export type StampKey = keyof StateSummary["stamps"];

/**
 * Writes an ISO time into a `## session` value of state.md at the slot the parser recorded, exactly as the general
 * writer `setStateField` would (same quoting, same spacing), without loading the markdown parser: the hook does this
 * at every session start and end. Returns the new text and where the value now sits, or null when it cannot be
 * sure (not an ISO time, a slot outside the text), so the caller falls back to the general writer.
 */
export function writeStamp(
  text: string,
  slot: StampSlot,
  iso: string,
): { text: string; slot: StampSlot } | null {
  if (!ISO_TIME.test(iso)) return null;
  if (slot.start < 0 || slot.end < slot.start || slot.end > text.length)
    return null;
  let written: string;
  if (slot.start === slot.end) {
    const before = text[slot.start - 1] === " " ? "" : " ";
    const after = text[slot.start] === "#" ? " " : "";
    written = `${before}${iso}${after}`;
  } else {
    const current = text.slice(slot.start, slot.end).trim();
    written = current.startsWith('"')
      ? JSON.stringify(iso)
      : current.startsWith("'")
        ? `'${iso}'`
        : iso;
  }
  const lead = written.length - written.trimStart().length;
  const start = slot.start + lead;
  return {
    text: text.slice(0, slot.start) + written + text.slice(slot.end),
    slot: { start, end: start + written.trim().length },
  };
}

/**
 * The summary of state.md after {@link writeStamp}, without parsing it again: the stamp's value and the slots move,
 * nothing else changes. Null when that cannot be known for sure (the old value spanned lines, or a diagnostic sits on
 * its line), so the caller lets the cache miss instead. A property test checks it equals a fresh parse.
 */
export function restampSummary(
  summary: StateSummary,
  before: string,
  key: StampKey,
  iso: string,
  written: { text: string; slot: StampSlot },
): StateSummary | null {
  const slot = summary.stamps[key];
  if (!slot || before.slice(slot.start, slot.end).includes("\n")) return null;
  const line = countLines(before, slot.start);
  if (summary.diagnostics.some((d) => d.line === line)) return null;
  const delta = written.text.length - before.length;
  const shift = (other: StampSlot | null): StampSlot | null =>
    other && other.start > slot.start
      ? { start: other.start + delta, end: other.end + delta }
      : other;
  const stamps = {
    lastStart:
      key === "lastStart" ? written.slot : shift(summary.stamps.lastStart),
    lastEnd: key === "lastEnd" ? written.slot : shift(summary.stamps.lastEnd),
  };
  return { ...summary, session: { ...summary.session, [key]: iso }, stamps };
}

function countLines(text: string, offset: number): number {
  let line = 1;
  for (
    let i = text.indexOf("\n");
    i !== -1 && i < offset;
    i = text.indexOf("\n", i + 1)
  )
    line++;
  return line;
}
