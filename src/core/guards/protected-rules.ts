import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";
import { TRUST_PATHS } from "../paths/trust-paths.ts";

export const PROTECTION_LEVELS = ["HARD_BLOCK", "BLOCK", "WARN"] as const;
export type ProtectionLevel = (typeof PROTECTION_LEVELS)[number];

export interface ProtectedRule {
  level: ProtectionLevel;
  /** A gitignore pattern; `!pattern` takes paths back out of this level. */
  pattern: string;
  /** Where the rule comes from: `.claude/protected-files.txt:12`, or `built-in`. */
  source: string;
}

/**
 * Always protected, whatever the file says: the trust paths (records, locks, the security configuration, the
 * agents whose verdicts count, the enforcement code) only playbook or the user may write; git's own folder is never
 * edited by hand; the hook wiring is the user's call.
 */
const BUILT_IN: readonly [ProtectionLevel, string][] = [
  ...TRUST_PATHS.map(
    ({ path, folder }) =>
      ["HARD_BLOCK", folder ? `${path}/**` : path] as [ProtectionLevel, string],
  ),
  ["HARD_BLOCK", ".git/**"],
  // A worktree's or a submodule's `.git` is a file naming the git folder: rewritten, git (and the hook) would read
  // another repository's settings.
  ["HARD_BLOCK", ".git"],
  ["BLOCK", ".claude/settings.json"],
  ["BLOCK", ".claude/settings.local.json"],
  ["BLOCK", ".mcp.json"],
];

export const BUILT_IN_RULES: readonly ProtectedRule[] = BUILT_IN.map(
  ([level, pattern]) => ({
    level,
    pattern,
    source: "built-in",
  }),
);

/**
 * Parses `.claude/protected-files.txt`: one `LEVEL pattern` (or `LEVEL: pattern`) per line, or `[LEVEL]` headers
 * followed by bare patterns; `#` starts a comment. Patterns are gitignore patterns, read by the `ignore` library
 * (the matcher ESLint and Prettier use): classes, `!negation`, anchoring and `**` behave as in `.gitignore`.
 */
export function parseProtectedRules(
  text: string,
  file: string,
): { rules: ProtectedRule[]; diagnostics: Diagnostic[] } {
  const rules: ProtectedRule[] = [];
  const diagnostics: Diagnostic[] = [];
  let section: ProtectionLevel | null = null;
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const line = rawLine.replace(/(^|\s)#.*$/, "").trim();
    if (line === "") return;
    const at = { line: index + 1, column: 1 };
    const header = /^\[([A-Z_]+)\]$/.exec(line);
    if (header) {
      const level = asLevel(header[1] ?? "");
      if (level) section = level;
      else
        diagnostics.push(
          diagnosticAt(
            file,
            at,
            "protected-level-unknown",
            "error",
            `Unexpected section \`${line}\`, expected one of ${PROTECTION_LEVELS.map((l) => `[${l}]`).join(", ")}. Fix the header.`,
          ),
        );
      return;
    }
    const prefixed = /^([A-Z_]+):?\s+(\S.*)$/.exec(line);
    const level = prefixed ? asLevel(prefixed[1] ?? "") : null;
    const pattern = level ? (prefixed?.[2] ?? "").trim() : line;
    const effective = level ?? section;
    if (!effective) {
      diagnostics.push(
        diagnosticAt(
          file,
          at,
          "protected-level-missing",
          "error",
          `Unexpected \`${line}\` without a level, expected \`HARD_BLOCK <pattern>\`, \`BLOCK <pattern>\` or \`WARN <pattern>\`. Add the level.`,
        ),
      );
      return;
    }
    rules.push({
      level: effective,
      pattern,
      source: `${file}:${index + 1}`,
    });
  });
  return { rules, diagnostics };
}

function asLevel(word: string): ProtectionLevel | null {
  return (PROTECTION_LEVELS as readonly string[]).includes(word)
    ? (word as ProtectionLevel)
    : null;
}
