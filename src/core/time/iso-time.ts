const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * `date.toISOString()`, built from the UTC fields. The hook stamps its logs on every tool call, and the built-in
 * costs about 0.2 ms the first time a process calls it; this costs a tenth of that.
 */
export function toIsoTime(date: Date): string {
  const year = date.getUTCFullYear();
  // Years outside 0000-9999 have an extended form only the built-in writes.
  if (year < 0 || year > 9999) return date.toISOString();
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}Z`;
}
