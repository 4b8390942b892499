/** A file a range of commits creates or changes, with the lines they add to it (null: binary, nothing to read). */
export interface FileAddition {
  path: string;
  content: string | null;
}

/**
 * What a patch adds, file by file, from the output of `git log -p --format= --no-renames` (with `core.quotePath`
 * off): every path a commit creates or changes, even an empty new file, and the lines added to it across the
 * commits. A path only deleted is left out: what is gone adds nothing to publish.
 */
export function additionsOfPatch(patch: string): FileAddition[] {
  const files = new Map<string, { lines: string[]; binary: boolean }>();
  let current: { lines: string[]; binary: boolean } | null = null;
  // The path of the file whose header is being read; it is listed once the header shows it gains something.
  let pending: string | null = null;
  let inHeader = false;
  const open = (path: string) => {
    const file = files.get(path) ?? { lines: [], binary: false };
    files.set(path, file);
    return file;
  };
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      inHeader = true;
      current = null;
      pending = pathOfDiffLine(line.slice("diff --git ".length));
      continue;
    }
    if (inHeader) {
      if (line.startsWith("@@")) inHeader = false;
      else if (line.startsWith("deleted file mode")) pending = null;
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
    if (line.startsWith("+") && current) current.lines.push(line.slice(1));
  }
  return [...files].map(([path, file]) => ({
    path,
    content:
      file.binary && file.lines.length === 0 ? null : file.lines.join("\n"),
  }));
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
