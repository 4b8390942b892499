import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";

export const PROTECTION_LEVELS = ["HARD_BLOCK", "BLOCK", "WARN"] as const;
export type ProtectionLevel = (typeof PROTECTION_LEVELS)[number];

export interface ProtectedRule {
  level: ProtectionLevel;
  pattern: string;
  /** Where the rule comes from: `.claude/protected-files.txt:12`, or `built-in`. */
  source: string;
  matcher: RegExp;
}

/**
 * Always protected, whatever the file says: the runtime folder holds records and locks only playbook commands may
 * write; git's own folder is never edited by hand; the hook wiring and the protection list are the user's call.
 */
const BUILT_IN: readonly [ProtectionLevel, string][] = [
  ["HARD_BLOCK", ".claude/playbook/**"],
  ["HARD_BLOCK", ".git/**"],
  ["BLOCK", ".claude/protected-files.txt"],
  ["BLOCK", ".claude/settings.json"],
  ["BLOCK", ".claude/settings.local.json"],
];

export const BUILT_IN_RULES: readonly ProtectedRule[] = BUILT_IN.map(
  ([level, pattern]) => ({
    level,
    pattern,
    source: "built-in",
    matcher: globToRegExp(pattern),
  }),
);

/**
 * Parses `.claude/protected-files.txt`: one `LEVEL pattern` (or `LEVEL: pattern`) per line, or `[LEVEL]` headers
 * followed by bare patterns; `#` starts a comment. Patterns are gitignore-like globs: without a `/` they match a
 * file name at any depth, with one they are anchored at the repository root; `**` crosses folders.
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
      matcher: globToRegExp(pattern),
    });
  });
  return { rules, diagnostics };
}

function asLevel(word: string): ProtectionLevel | null {
  return (PROTECTION_LEVELS as readonly string[]).includes(word)
    ? (word as ProtectionLevel)
    : null;
}

/** The strictest rule matching `repoPath`, or null. */
export function findProtection(
  rules: readonly ProtectedRule[],
  repoPath: string,
): ProtectedRule | null {
  let found: ProtectedRule | null = null;
  for (const rule of rules) {
    if (!rule.matcher.test(repoPath)) continue;
    if (
      !found ||
      PROTECTION_LEVELS.indexOf(rule.level) <
        PROTECTION_LEVELS.indexOf(found.level)
    )
      found = rule;
  }
  return found;
}

/** A gitignore-like glob as a regular expression over repository-relative POSIX paths. */
export function globToRegExp(pattern: string): RegExp {
  let p = pattern.replace(/\\/g, "/");
  const anchored = p.startsWith("/") || p.slice(0, -1).includes("/");
  p = p.replace(/^\//, "");
  const dirOnly = p.endsWith("/");
  if (dirOnly) p = `${p}**`;
  let source = "";
  for (let i = 0; i < p.length; i++) {
    const ch = p[i] ?? "";
    if (ch === "*" && p[i + 1] === "*") {
      const slashAfter = p[i + 2] === "/";
      source += slashAfter ? "(?:.*/)?" : ".*";
      i += slashAfter ? 2 : 1;
    } else if (ch === "*") source += "[^/]*";
    else if (ch === "?") source += "[^/]";
    else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  // A pattern naming a folder also covers everything inside it.
  const tail = "(?:/.*)?";
  return new RegExp(`^${anchored ? "" : "(?:.*/)?"}${source}${tail}$`);
}
