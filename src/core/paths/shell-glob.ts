/**
 * Shell globs over POSIX paths, matched segment by segment without regular expressions, so a pattern an agent
 * writes (`/tmp/**?**?**?…`) costs at most pattern length × path length steps, never a backtracking blow-up.
 *
 * The dialect is bash's default filename expansion, read on the side of reaching more:
 * - `*`, `?` and `[...]` (`[!...]`/`[^...]` negated, ranges, `\x` escapes) stay within one name, and do not match a
 *   leading `.`: only a name pattern that starts with a literal `.` matches a dotfile (bash without `dotglob`);
 * - a whole `**` segment matches any number of names, dotfiles included: a superset of bash with or without
 *   `globstar`, which is also how playbook writes "anything inside this folder" (`dir/**`) for find and archives;
 * - `dotfiles: true` lets wildcards match a leading `.`, as `find -name` does.
 */
export interface ShellGlob {
  /** The glob matches this path itself. */
  matches(path: string): boolean;
  /** The glob matches this path or a folder above it: removing what it matches removes the path. */
  reaches(path: string): boolean;
  /**
   * The glob names something strictly inside this folder through the folder's own name: `.claude/` + `*` +
   * `/records` inside `.claude/playbook`. A globstar that merely passes through the folder does not count: whether
   * such a name exists there is a question for the disk, which the caller answers by listing what matters inside.
   */
  reachesInside(folder: string): boolean;
}

export interface ShellGlobOptions {
  dotfiles?: boolean;
  ignoreCase?: boolean;
}

type Token =
  | { kind: "char"; char: string }
  | { kind: "any" }
  | { kind: "star" }
  | {
      kind: "class";
      negated: boolean;
      chars: string[];
      ranges: [string, string][];
    };

type Segment = { kind: "globstar" } | { kind: "name"; tokens: Token[] };

export function shellGlob(
  glob: string,
  options: ShellGlobOptions = {},
): ShellGlob {
  const fold = (s: string) => (options.ignoreCase ? s.toLowerCase() : s);
  const segments = splitPath(glob).map((part): Segment =>
    part === "**"
      ? { kind: "globstar" }
      : { kind: "name", tokens: tokenize(fold(part)) },
  );
  const dotfiles = options.dotfiles === true;
  const names = (path: string) => splitPath(fold(path));
  const globstar: Segment = { kind: "globstar" };
  return {
    matches: (path) => matchSegments(segments, names(path), dotfiles),
    reaches: (path) =>
      matchSegments([...segments, globstar], names(path), dotfiles),
    reachesInside: (folder) => {
      const parts = names(folder);
      for (let k = 1; k < segments.length; k++)
        if (
          segments[k - 1]?.kind !== "globstar" &&
          matchSegments(segments.slice(0, k), parts, dotfiles)
        )
          return true;
      return false;
    },
  };
}

/** Whether a glob's last segment matches every name in its folder (`dir/*`, `dir/.*`, `dir/**`). */
export function isWholeFolderGlob(glob: string): boolean {
  const last = glob.slice(glob.lastIndexOf("/") + 1);
  return /^(?:\.?\*+|\*\*)$/.test(last);
}

/**
 * The name patterns that, in this dialect, match exactly the dotfiles `find -name PATTERN` matches: `*.json` also
 * matches `.x.json` and `.json` under find, which `.*.json` and `.json` say here.
 */
export function dotfileVariants(pattern: string): string[] {
  const found = new Set<string>();
  let rest = pattern;
  for (;;) {
    const first = rest[0];
    if (first === undefined) break;
    if (first === ".") found.add(rest);
    else if (first === "\\" && rest[1] === ".") found.add(rest);
    else if (first === "?") found.add(`.${rest.slice(1)}`);
    else if (first === "[") {
      const end = classEnd(rest, 0);
      const tokens = tokenize(rest.slice(0, end + 1));
      const only = tokens[0];
      if (end !== -1 && only && matchToken(only, "."))
        found.add(`.${rest.slice(end + 1)}`);
    } else if (first === "*") {
      // The star takes the dot (and maybe more), or nothing, leaving the rest to start the name.
      found.add(`.${rest}`);
      rest = rest.slice(1);
      continue;
    }
    break;
  }
  return [...found];
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === "") return path.startsWith("/") ? [""] : [];
  return trimmed.split(/\/+/);
}

function tokenize(part: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < part.length; i++) {
    const ch = part[i] ?? "";
    if (ch === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (ch === "?") tokens.push({ kind: "any" });
    else if (ch === "\\" && i + 1 < part.length)
      tokens.push({ kind: "char", char: part[++i] ?? "" });
    else if (ch === "[" && classEnd(part, i) !== -1) {
      const end = classEnd(part, i);
      tokens.push(parseClass(part.slice(i + 1, end)));
      i = end;
    } else tokens.push({ kind: "char", char: ch });
  }
  return tokens;
}

/** Where the `]` closing the class that opens at `start` is; -1 when there is none (then `[` is literal). */
function classEnd(part: string, start: number): number {
  let i = start + 1;
  if (part[i] === "!" || part[i] === "^") i++;
  if (part[i] === "]") i++;
  for (; i < part.length; i++) {
    if (part[i] === "\\") i++;
    else if (part[i] === "]") return i;
  }
  return -1;
}

function parseClass(body: string): Token {
  const negated = body.startsWith("!") || body.startsWith("^");
  const chars: string[] = [];
  const ranges: [string, string][] = [];
  const items = [...body.slice(negated ? 1 : 0)];
  for (let i = 0; i < items.length; i++) {
    let ch = items[i] ?? "";
    if (ch === "\\" && i + 1 < items.length) ch = items[++i] ?? "";
    if (items[i + 1] === "-" && i + 2 < items.length) {
      ranges.push([ch, items[i + 2] ?? ""]);
      i += 2;
    } else chars.push(ch);
  }
  return { kind: "class", negated, chars, ranges };
}

function matchToken(token: Token, ch: string): boolean {
  switch (token.kind) {
    case "any":
      return true;
    case "char":
      return token.char === ch;
    case "class": {
      const inside =
        token.chars.includes(ch) ||
        token.ranges.some(([from, to]) => from <= ch && ch <= to);
      return inside !== token.negated;
    }
    case "star":
      return false;
  }
}

/** One name against one segment's tokens: the classic two-pointer wildcard match, O(tokens × name). */
function matchName(
  tokens: readonly Token[],
  name: string,
  dotfiles: boolean,
): boolean {
  if (name.startsWith(".") && !dotfiles) {
    const first = tokens[0];
    if (first?.kind !== "char" || first.char !== ".") return false;
  }
  const chars = [...name];
  let t = 0;
  let n = 0;
  let starT = -1;
  let starN = 0;
  while (n < chars.length) {
    const token = tokens[t];
    if (token?.kind === "star") {
      starT = t++;
      starN = n;
    } else if (token && matchToken(token, chars[n] ?? "")) {
      t++;
      n++;
    } else if (starT !== -1) {
      t = starT + 1;
      n = ++starN;
    } else return false;
  }
  while (tokens[t]?.kind === "star") t++;
  return t === tokens.length;
}

/** Segments against names, the same two-pointer walk one level up: `**` is the star, a name segment one name. */
function matchSegments(
  segments: readonly Segment[],
  names: readonly string[],
  dotfiles: boolean,
): boolean {
  let s = 0;
  let n = 0;
  let starS = -1;
  let starN = 0;
  while (n < names.length) {
    const segment = segments[s];
    if (segment?.kind === "globstar") {
      starS = s++;
      starN = n;
    } else if (segment && matchName(segment.tokens, names[n] ?? "", dotfiles)) {
      s++;
      n++;
    } else if (starS !== -1) {
      s = starS + 1;
      n = ++starN;
    } else return false;
  }
  while (segments[s]?.kind === "globstar") s++;
  return s === segments.length;
}
