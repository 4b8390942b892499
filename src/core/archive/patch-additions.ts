import type { LineOrigin, ScannedFile } from "./secrets.ts";

/**
 * A file a range of commits creates or changes, with the lines they add to it (null: binary, nothing to read), and
 * where each of those lines is: its number in the file as the commit that added it left it, and that commit.
 */
export interface FileAddition extends ScannedFile {
  origins: LineOrigin[];
}

interface Gathered {
  lines: string[];
  origins: LineOrigin[];
  binary: boolean;
}

/** A commit's name alone on its line, as `--format=%H` prints it before the commit's patch. */
const COMMIT_LINE = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * What a patch adds, file by file, from the output of `git log -p --format=%H --no-renames -U0` (with
 * `core.quotePath` off): every path a commit creates or changes, even an empty new file, and the lines added to it
 * across the commits, each with its line number from the hunk header and its commit. A path only deleted is left
 * out: what is gone adds nothing to publish.
 */
export function additionsOfPatch(patch: string): FileAddition[] {
  const files = new Map<string, Gathered>();
  let current: Gathered | null = null;
  // The path of the file whose header is being read; it is listed once the header shows it gains something.
  let pending: string | null = null;
  let inHeader = false;
  let commit: string | null = null;
  // The line number in the new file of the next added line (from the hunk header, `-U0`: no context lines).
  let nextLine = 1;
  const open = (path: string) => {
    const file = files.get(path) ?? { lines: [], origins: [], binary: false };
    files.set(path, file);
    return file;
  };
  for (const line of patch.split("\n")) {
    // Outside a hunk's `+`/`-` lines, a bare commit name starts the next commit's patch.
    if (COMMIT_LINE.test(line)) {
      commit = line;
      current = null;
      inHeader = false;
      continue;
    }
    if (line.startsWith("diff --git ")) {
      inHeader = true;
      current = null;
      pending = pathOfDiffLine(line.slice("diff --git ".length));
      continue;
    }
    if (line.startsWith("@@")) {
      inHeader = false;
      nextLine = hunkStart(line);
      continue;
    }
    if (inHeader) {
      if (line.startsWith("deleted file mode")) pending = null;
      else if (line.startsWith("new file mode") && pending !== null)
        current = open(pending);
      else if (line.startsWith("Binary files ") && pending !== null) {
        current = open(pending);
        current.binary = true;
      } else if (line.startsWith("+++ ")) {
        const target = unquote(line.slice(4));
        if (target.startsWith("b/")) current = open(target.slice(2));
      }
      continue;
    }
    if (line.startsWith("+") && current) {
      current.lines.push(line.slice(1));
      current.origins.push({ line: nextLine++, commit });
    }
  }
  return [...files].map(([path, file]) => ({
    path,
    content:
      file.binary && file.lines.length === 0 ? null : file.lines.join("\n"),
    origins: file.origins,
  }));
}

/** The new file's first line of a hunk: `@@ -a,b +c,d @@` → c (`+0,0` for a hunk that only removes). */
function hunkStart(header: string): number {
  const start = /^@@+ [^@]*\+(\d+)/.exec(header)?.[1];
  return start === undefined ? 1 : Math.max(1, Number(start));
}

/** `a/P b/P` (the same path twice: renames are off), each side possibly C-quoted. */
function pathOfDiffLine(rest: string): string | null {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    const first = unquote(rest.slice(0, end + 1));
    return first.startsWith("a/") ? first.slice(2) : null;
  }
  if ((rest.length - 5) % 2 !== 0) return null;
  const path = rest.slice(2, 2 + (rest.length - 5) / 2);
  return rest.startsWith("a/") && rest.endsWith(` b/${path}`) ? path : null;
}

function closingQuote(text: string): number {
  for (let at = 1; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === '"') return at;
  }
  return text.length - 1;
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  '"': '"',
  "\\": "\\",
  a: "\x07",
  b: "\b",
  f: "\f",
  r: "\r",
  v: "\v",
};

/** Git's C-style quoting of a path (`"a/x\ty"`, octal bytes of UTF-8); an unquoted path is returned as it is. */
function unquote(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2)
    return text;
  const bytes: number[] = [];
  const inner = text.slice(1, -1);
  for (let at = 0; at < inner.length; at++) {
    const char = inner[at] ?? "";
    if (char !== "\\") {
      bytes.push(...new TextEncoder().encode(char));
      continue;
    }
    const next = inner[at + 1] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(inner.slice(at + 1, at + 4), 8));
      at += 3;
    } else {
      bytes.push(...new TextEncoder().encode(ESCAPES[next] ?? next));
      at += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
