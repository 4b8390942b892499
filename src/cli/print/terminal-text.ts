/**
 * C0 controls except tab, DEL, the C1 range, and the bidirectional embeddings, overrides and isolates that make a
 * terminal show text in another order than it is (U+202A-U+202E, U+2066-U+2069).
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The visible stand-in of one control character: its Control Pictures glyph (`␛` for ESC), or `�` for C1. */
function placeholder(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return "\ufffd";
}

/**
 * `value` with every string in it (deeply) made safe to print on a terminal: control characters that came from
 * documents or arguments become visible placeholders, so a criterion cannot retitle the window, clear the screen
 * or fake colours. One character in, one out, so widths and padding stay right. Apply it to data before adding
 * our own colour codes; JSON output needs none of this.
 */
export function toTerminalText<T>(value: T): T {
  if (typeof value === "string")
    return value.replace(CONTROL, placeholder) as T;
  if (Array.isArray(value))
    return (value as unknown[]).map((item) => toTerminalText(item)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, toTerminalText(v)]),
    ) as T;
  }
  return value;
}
