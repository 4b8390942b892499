import type { StampSlot } from "../cache/summary.ts";

/** The timestamps playbook writes: plain YAML scalars that read back as the same string. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/**
 * Writes an ISO time into a `## session` value of state.md at the slot the parser recorded, exactly as the general
 * writer `setStateField` would (same quoting, same spacing), without loading the markdown parser: the hook does this
 * at every session start and end. Returns null when it cannot be sure (not an ISO time), so the caller falls back to
 * the general writer.
 */
export function writeStamp(
  text: string,
  slot: StampSlot,
  iso: string,
): string | null {
  if (!ISO_TIME.test(iso)) return null;
  if (slot.start < 0 || slot.end < slot.start || slot.end > text.length)
    return null;
  let value: string;
  if (slot.start === slot.end) {
    const before = text[slot.start - 1] === " " ? "" : " ";
    const after = text[slot.start] === "#" ? " " : "";
    value = `${before}${iso}${after}`;
  } else {
    const current = text.slice(slot.start, slot.end).trim();
    value = current.startsWith('"')
      ? JSON.stringify(iso)
      : current.startsWith("'")
        ? `'${iso}'`
        : iso;
  }
  return text.slice(0, slot.start) + value + text.slice(slot.end);
}
