const FENCED_CODE = /(`{3,}|~{3,})[\s\S]*?(?:\1|$)/g;
const QUOTE_LINE = /^[ \t]*>[^\n]*/gm;
const INLINE_CODE = /``(?:[^`]|`(?!`))+``|`[^`\n]+`/g;
const URL =
  /\b(?:https?|ftp|file):\/\/[\w\-.~:/?#@!$&*+,;=%]+|\bwww\.[\w\-.~:/?#@!$&*+,;=%]+/gi;
const WINDOWS_PATH = /\b[A-Za-z]:\\[\w\\.\-~$@+]*/g;
// Lookbehinds keep each attempt at the start of a word, so a long word costs one pass.
const POSIX_PATH =
  /(?<![\w/.\\-])(?:(?:\.{1,2}|~)?\/[\w.@+-]+(?:\/[\w.@+-]*)*|[\w.@+-]+(?:\/[\w.@+-]*)+|[\w.@+-]+(?:\\[\w.@+-]+)+)/g;
const FILE_NAME =
  /(?<![\w.-])[\w-]*(?:\.[\w-]+)*\.(?:[cm]?[jt]sx?|json[c5]?|md|mdx|ya?ml|toml|lock|txt|env|ini|cfg|conf|sh|ps1|py|rb|rs|go|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sql|css|scss|html?|vue|svelte|log|xml|csv|hbs)(?![\w-])/gi;
const DOUBLE_QUOTED = /"[^"\n]*"/g;
const SINGLE_QUOTED = /(?<![\w'])'(?:[^'\n]|(?<=\w)'(?=\w))*'(?![A-Za-z0-9_])/g;
const TYPOGRAPHIC_QUOTED =
  /“[^“”]*”|‘[^‘’\n]*’|「[^「」]*」|『[^『』]*』|«[^«»]*»/g;

/**
 * The user's own prose from a prompt: fenced code blocks, markdown `>` quote lines, inline code, pasted JSON, URLs,
 * file paths and quoted text are removed (blocks leave a line break, spans a space), so that a request that is only
 * shown, quoted or pasted is not read as the user's request.
 */
export function stripNonProse(prompt: string): string {
  const text = prompt
    .replace(/\r\n?/g, "\n")
    .replace(FENCED_CODE, "\n")
    .replace(QUOTE_LINE, "")
    .replace(INLINE_CODE, " ");
  return removeJson(text)
    .replace(URL, " ")
    .replace(WINDOWS_PATH, " ")
    .replace(POSIX_PATH, " ")
    .replace(FILE_NAME, " ")
    .replace(DOUBLE_QUOTED, " ")
    .replace(SINGLE_QUOTED, " ")
    .replace(TYPOGRAPHIC_QUOTED, " ")
    .replace(/[ \t\u3000]+/g, " ")
    .replace(/ ?\n[\s]*/g, "\n")
    .trim();
}

/**
 * Removes balanced JSON objects and arrays (`{"...` / `[{`, `["`, `[1` ...) in one pass. Brackets inside JSON strings
 * do not count; a string that runs into a line break or a mismatched bracket abandons the candidate.
 */
function removeJson(text: string): string {
  const ranges: [number, number][] = [];
  const stack: string[] = [];
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (stack.length === 0) {
      if ((ch === "{" || ch === "[") && opensJson(text, i)) {
        start = i;
        stack.push(ch === "{" ? "}" : "]");
      }
      continue;
    }
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      else if (ch === "\n") {
        stack.length = 0;
        inString = false;
      }
    } else if (ch === '"') inString = true;
    else if (ch === "{") stack.push("}");
    else if (ch === "[") stack.push("]");
    else if (ch === "}" || ch === "]") {
      if (stack.pop() !== ch) stack.length = 0;
      else if (stack.length === 0) ranges.push([start, i + 1]);
    }
  }
  if (ranges.length === 0) return text;
  let out = "";
  let at = 0;
  for (const [from, to] of ranges) {
    out += `${text.slice(at, from)} `;
    at = to;
  }
  return out + text.slice(at);
}

function opensJson(text: string, at: number): boolean {
  const next = /\S/.exec(text.slice(at + 1, at + 64))?.[0];
  if (next === undefined) return false;
  return text[at] === "{"
    ? next === '"' || next === "}"
    : /["{[\]\d-]/.test(next);
}
