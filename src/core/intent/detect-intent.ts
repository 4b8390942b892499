import type { LanguagePatterns } from "./language-patterns.ts";
import { enPatterns } from "./patterns-en.ts";
import { jaPatterns } from "./patterns-ja.ts";
import { koPatterns } from "./patterns-ko.ts";
import { stripNonProse } from "./strip-non-prose.ts";

export type PromptIntent = "work" | "question" | "other";
export type PromptLanguage = "en" | "ja" | "ko";

export interface IntentPatterns {
  /** Extra regular-expression sources (from user config) that mark a prompt as work. */
  work?: readonly string[];
  /** Extra regular-expression sources that mark a prompt as not work (checked first). */
  notWork?: readonly string[];
}

export interface IntentResult {
  intent: PromptIntent;
  /** Languages whose patterns were tried (detected by script: kana/kanji → ja, hangul → ko, else en; a prompt can be several). */
  languages: PromptLanguage[];
  /** The words that decided it, for logs and tests (e.g. "implement", "実装して"), or null. */
  matched: string | null;
}

/** Raw prompt length looked at; stripping is linear, this only bounds a pathological paste. */
const MAX_RAW = 100_000;
/** Prose length looked at after stripping. */
const MAX_PROSE = 20_000;

const PATTERNS: Record<PromptLanguage, LanguagePatterns> = {
  en: enPatterns,
  ja: jaPatterns,
  ko: koPatterns,
};

const JAPANESE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]/;
const KOREAN = /[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/;
const ENGLISH_RUN =
  /[A-Za-z]+(?:['’][a-z]+)?(?:[ ,]+[A-Za-z]+(?:['’][a-z]+)?){2}/;
const SLASH_COMMAND = /^\s*\/[\w:.-]+(?:\s|$)/;

/**
 * Whether a prompt asks for changes to the repository ("work"), asks about something ("question") or neither
 * ("other": greetings, thanks, slash commands, empty). Code, quotes, paths, URLs and pasted JSON are ignored
 * (see {@link stripNonProse}); `extra` patterns from user config are tried first, `notWork` before `work`, and
 * invalid ones are skipped. Never throws.
 */
export function detectIntent(
  prompt: string,
  extra: IntentPatterns = {},
): IntentResult {
  try {
    return detect(typeof prompt === "string" ? prompt : "", extra);
  } catch {
    // A hook must never fail the user's prompt over a classification.
    return { intent: "other", languages: ["en"], matched: null };
  }
}

function detect(prompt: string, extra: IntentPatterns): IntentResult {
  const raw = prompt.slice(0, MAX_RAW);
  const prose = stripNonProse(raw).slice(0, MAX_PROSE);
  const languages = detectLanguages(prose);

  const notWork = firstMatch(extra.notWork, prose);
  if (notWork !== null)
    return {
      intent: notWorkIntent(prose, languages),
      languages,
      matched: notWork,
    };
  const work = firstMatch(extra.work, prose);
  if (work !== null) return { intent: "work", languages, matched: work };

  for (const language of languages) {
    const matched = PATTERNS[language].findWork(prose);
    if (matched !== null) return { intent: "work", languages, matched };
  }
  // `/users endpoint ...` starts like a slash command too, so a command only decides when nothing asked for work.
  if (SLASH_COMMAND.test(raw))
    return { intent: "other", languages, matched: null };
  for (const language of languages) {
    const matched = PATTERNS[language].findQuestion(prose);
    if (matched !== null) return { intent: "question", languages, matched };
  }
  return { intent: "other", languages, matched: null };
}

function notWorkIntent(
  prose: string,
  languages: PromptLanguage[],
): PromptIntent {
  return languages.some((l) => PATTERNS[l].findQuestion(prose) !== null)
    ? "question"
    : "other";
}

function detectLanguages(prose: string): PromptLanguage[] {
  const ja = JAPANESE.test(prose);
  const ko = KOREAN.test(prose);
  const languages: PromptLanguage[] = [];
  if ((!ja && !ko) || ENGLISH_RUN.test(prose)) languages.push("en");
  if (ja) languages.push("ja");
  if (ko) languages.push("ko");
  return languages;
}

const compiled = new Map<string, RegExp | null>();

function firstMatch(
  sources: readonly string[] | undefined,
  prose: string,
): string | null {
  if (!Array.isArray(sources)) return null;
  for (const source of sources as readonly unknown[]) {
    if (typeof source !== "string") continue;
    const match = toRegExp(source)?.exec(prose);
    if (match) return match[0] === "" ? source : match[0];
  }
  return null;
}

function toRegExp(source: string): RegExp | null {
  // An empty source matches every prompt: a config slip, not a rule.
  if (source === "") return null;
  let regex = compiled.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source, "i");
    } catch {
      regex = null;
    }
    // Config holds a handful of patterns; the bound only stops a caller that builds them on the fly.
    if (compiled.size > 256) compiled.clear();
    compiled.set(source, regex);
  }
  return regex;
}
