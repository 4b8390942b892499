/** Wording that cannot be checked by a command or a person. Users can replace the list in .claude/playbook.json. */
export const DEFAULT_BANNED_PHRASES: readonly string[] = [
  "properly",
  "correctly",
  "works well",
  "work well",
  "as needed",
  "as appropriate",
  "appropriately",
  "if possible",
  "and so on",
  "etc.",
  "good enough",
  "user-friendly",
  "fast enough",
  "clean code",
  "適切に",
  "正しく",
  "うまく",
  "きちんと",
  "ちゃんと",
  "必要に応じて",
  "적절히",
  "적절하게",
  "제대로",
  "필요에 따라",
];

/** Returns the first banned phrase found in `text` (whole words for Latin script, substrings otherwise). */
export function findBannedPhrase(
  text: string,
  phrases: readonly string[],
): string | null {
  const lower = text.toLowerCase();
  for (const { phrase, needle, pattern } of compile(phrases)) {
    if (pattern ? pattern.test(lower) : lower.includes(needle)) return phrase;
  }
  return null;
}

interface Matcher {
  phrase: string;
  needle: string;
  pattern: RegExp | null;
}

const compiled = new WeakMap<readonly string[], Matcher[]>();

function compile(phrases: readonly string[]): Matcher[] {
  const cached = compiled.get(phrases);
  if (cached) return cached;
  const matchers: Matcher[] = [];
  for (const phrase of phrases) {
    const needle = phrase.toLowerCase();
    if (needle === "") continue;
    let pattern: RegExp | null = null;
    if (/^[\x20-\x7e]+$/.test(needle)) {
      const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const startsWord = /^\w/.test(needle) ? "\\b" : "";
      const endsWord = /\w$/.test(needle) ? "\\b" : "";
      pattern = new RegExp(`${startsWord}${escaped}${endsWord}`, "i");
    }
    matchers.push({ phrase, needle, pattern });
  }
  compiled.set(phrases, matchers);
  return matchers;
}
