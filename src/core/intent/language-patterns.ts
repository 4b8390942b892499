/** What one language contributes to intent detection. Both functions are pure and read only the given prose. */
export interface LanguagePatterns {
  /** The words of the first request for changes in `prose` (already stripped of code and quotes), or null. */
  findWork(prose: string): string | null;
  /** The word that shows `prose` asks about something, or null. */
  findQuestion(prose: string): string | null;
}

/** English verbs Japanese and Korean developers write as they are (「fixして」, 「refactor해줘」). */
export const LOAN_VERBS: readonly string[] = [
  "fix",
  "implement",
  "add",
  "refactor",
  "update",
  "rename",
  "delete",
  "remove",
  "migrate",
  "upgrade",
  "bump",
  "optimize",
  "cleanup",
  "replace",
  "rewrite",
  "revert",
  "debug",
];
