const BLOCK_BEGIN = "<!-- playbook:begin -->";
const BLOCK_END = "<!-- playbook:end -->";

export type BlockRead =
  | { status: "none" }
  | { status: "ok"; body: string; start: number; end: number }
  | { status: "broken"; line: number; problem: string };

/** Finds playbook's block in CLAUDE.md: the text between the markers (each alone on its line). */
function readClaudeBlock(text: string): BlockRead {
  const lines = text.split("\n");
  const begins = lines.flatMap((l, i) => (l.trim() === BLOCK_BEGIN ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === BLOCK_END ? [i] : []));
  if (begins.length === 0 && ends.length === 0) return { status: "none" };
  const first = begins[0];
  const last = ends[0];
  if (begins.length > 1 || ends.length > 1)
    return {
      status: "broken",
      line: (begins[1] ?? ends[1] ?? 0) + 1,
      problem: `CLAUDE.md has more than one ${begins.length > 1 ? BLOCK_BEGIN : BLOCK_END}`,
    };
  if (first === undefined || last === undefined || last < first)
    return {
      status: "broken",
      line: (first ?? last ?? 0) + 1,
      problem: `CLAUDE.md has ${first === undefined ? BLOCK_END : BLOCK_BEGIN} without ${first === undefined ? BLOCK_BEGIN : BLOCK_END}${last !== undefined && first !== undefined ? " after it" : ""}`,
    };
  const start = lines.slice(0, first).join("\n").length + (first > 0 ? 1 : 0);
  const endLine = lines.slice(0, last + 1).join("\n").length;
  return {
    status: "ok",
    body: lines.slice(first + 1, last).join("\n"),
    start,
    end: endLine,
  };
}

/** CLAUDE.md with playbook's block set to `body`: replaced in place, or appended after the user's text. */
export function upsertClaudeBlock(
  text: string | null,
  body: string,
): { ok: true; text: string } | { ok: false; line: number; problem: string } {
  const block = `${BLOCK_BEGIN}\n${body.replace(/\n+$/, "")}\n${BLOCK_END}`;
  if (text === null || text.trim() === "")
    return { ok: true, text: `${block}\n` };
  const read = readClaudeBlock(text);
  if (read.status === "broken") return { ok: false, ...read };
  if (read.status === "ok")
    return {
      ok: true,
      text: text.slice(0, read.start) + block + text.slice(read.end),
    };
  return { ok: true, text: `${text.replace(/\n*$/, "")}\n\n${block}\n` };
}

/** CLAUDE.md without playbook's block (and the blank line init put before it); null when nothing else is left. */
export function removeClaudeBlock(
  text: string,
):
  | { ok: true; text: string | null }
  | { ok: false; line: number; problem: string } {
  const read = readClaudeBlock(text);
  if (read.status === "broken") return { ok: false, ...read };
  if (read.status === "none") return { ok: true, text };
  const before = text.slice(0, read.start).replace(/\n\n$/, "\n");
  const after = text.slice(read.end).replace(/^\n/, "");
  const rest = before + after;
  return { ok: true, text: rest.trim() === "" ? null : rest };
}
