import { stateResetEdits } from "./journal.ts";

/** Which side of the merge is the branch being archived: `theirs` when it is merged into the default branch. */
export type ArchiveSide = "ours" | "theirs";

/** The keys the archive's reset writes: on the default branch, the newest archive's values are the true ones. */
const ARCHIVE_KEYS: ReadonlySet<string> = new Set(
  stateResetEdits("").map((edit) => edit.key),
);

/** Session stamps: each session writes its own, and the later one is the last start or end. */
const STAMP_KEYS: ReadonlySet<string> = new Set(["last_start", "last_end"]);

interface Entry {
  /** The YAML key the entry sets, or null for any other line. */
  key: string | null;
  lines: string[];
}

interface Hunk {
  ours: string[];
  base: string[];
  theirs: string[];
}

/**
 * state.md after a merge that conflicted (git's diff3 conflict style), with every conflict resolved, or null when
 * one is not state.md's own bookkeeping. Two branches archived from the same commit both rewrite the same lines
 * (`last_archived`, the goal, the session stamps); a hunk is resolved key by key: a key only one side changed takes
 * that change, a key both changed takes the archived branch's value when the archive writes it, and the later time
 * for a session stamp. Anything else both sides changed (prose, the config, a key only one side has) is a real
 * conflict for a person.
 */
export function resolveStateConflicts(
  text: string,
  archiveSide: ArchiveSide,
): string | null {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!isMarker(line, "<")) {
      out.push(line);
      continue;
    }
    const hunk = readHunk(lines, i + 1);
    if (hunk === null) return null;
    const resolved = resolveHunk(hunk.hunk, archiveSide);
    if (resolved === null) return null;
    out.push(...resolved);
    i = hunk.end;
  }
  return out.join("\n");
}

function isMarker(line: string, char: "<" | "|" | "=" | ">"): boolean {
  const bare = line.replace(/\r$/, "");
  return char === "="
    ? bare === "======="
    : bare.startsWith(char.repeat(7)) && (bare.length === 7 || bare[7] === " ");
}

/** The hunk whose `<<<<<<<` line is just before `start`, and the index of its `>>>>>>>` line. */
function readHunk(
  lines: readonly string[],
  start: number,
): { hunk: Hunk; end: number } | null {
  const hunk: Hunk = { ours: [], base: [], theirs: [] };
  let part: keyof Hunk = "ours";
  let sawBase = false;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (isMarker(line, "|") && part === "ours") {
      part = "base";
      sawBase = true;
    } else if (isMarker(line, "=") && part === "base") part = "theirs";
    else if (isMarker(line, ">") && part === "theirs")
      return sawBase ? { hunk, end: i } : null;
    else if (isMarker(line, "<")) return null;
    else hunk[part].push(line);
  }
  return null;
}

/** Lines as YAML entries: a `key:` line with the lines that continue its value (indented, or list items). */
function entries(lines: readonly string[]): Entry[] {
  const out: Entry[] = [];
  for (const line of lines) {
    const key = /^([A-Za-z_][\w-]*):(?:\s|$)/.exec(line)?.[1];
    const last = out.at(-1);
    if (key !== undefined) out.push({ key, lines: [line] });
    else if (last?.key && /^[ \t-]/.test(line) && line.trim() !== "")
      last.lines.push(line);
    else out.push({ key: null, lines: [line] });
  }
  return out;
}

const same = (a: Entry, b: Entry) => a.lines.join("\n") === b.lines.join("\n");

function resolveHunk(hunk: Hunk, archiveSide: ArchiveSide): string[] | null {
  const ours = entries(hunk.ours);
  const theirs = entries(hunk.theirs);
  const base = entries(hunk.base);
  if (ours.length !== theirs.length) return null;
  const out: string[] = [];
  for (const [index, o] of ours.entries()) {
    const t = theirs[index];
    if (t === undefined || t.key !== o.key) return null;
    const chosen = choose(o, t, o.key, base, archiveSide);
    if (chosen === null) return null;
    out.push(...chosen.lines);
  }
  return out;
}

function choose(
  o: Entry,
  t: Entry,
  key: string | null,
  base: readonly Entry[],
  archiveSide: ArchiveSide,
): Entry | null {
  if (same(o, t)) return o;
  if (key === null) return null;
  const b = base.find((e) => e.key === key);
  if (b !== undefined && same(o, b)) return t;
  if (b !== undefined && same(t, b)) return o;
  if (ARCHIVE_KEYS.has(key)) return archiveSide === "ours" ? o : t;
  if (STAMP_KEYS.has(key)) return stampOf(o) >= stampOf(t) ? o : t;
  return null;
}

/** A stamp's value for comparing (ISO times sort as text); none at all sorts first. */
function stampOf(entry: Entry): string {
  const value = (entry.lines[0] ?? "")
    .replace(/^[^:]*:/, "")
    .replace(/\s#.*$/, "")
    .trim();
  return value === "null" || value === "~" ? "" : value;
}
