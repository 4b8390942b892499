import ignore, { type Ignore } from "ignore";
import {
  PROTECTION_LEVELS,
  type ProtectedRule,
  type ProtectionLevel,
} from "./protected-rules.ts";

// Kept apart from the rules' parser: the matcher is needed only when a guard judges a change, so the session
// events' bundle (which parses the rules for its summary) does not carry the gitignore library.

/**
 * The strictest rule protecting `repoPath`, or null. Within one level the rules are one gitignore file (the last
 * matching line wins, so `!pattern` unprotects); the built-in rules are their own list, which no user line negates.
 * Matching ignores case: on a case-insensitive disk `.ENV` is `.env`.
 */
export function findProtection(
  rules: readonly ProtectedRule[],
  repoPath: string,
): ProtectedRule | null {
  if (!mayMatch(rules, repoPath)) return null;
  if (!ignore.isPathValid(repoPath)) return null;
  for (const level of PROTECTION_LEVELS)
    for (const list of compiled(rules)[level]) {
      const found = list.rules[Number(list.matcher.test(repoPath).rule?.mark)];
      if (found) return found;
    }
  return null;
}

interface CompiledList {
  matcher: Ignore;
  rules: readonly ProtectedRule[];
}

const cache = new WeakMap<
  readonly ProtectedRule[],
  Record<ProtectionLevel, CompiledList[]>
>();

function compiled(
  rules: readonly ProtectedRule[],
): Record<ProtectionLevel, CompiledList[]> {
  const hit = cache.get(rules);
  if (hit) return hit;
  const byLevel = {} as Record<ProtectionLevel, CompiledList[]>;
  for (const level of PROTECTION_LEVELS) {
    const lists: CompiledList[] = [];
    for (const builtIn of [true, false]) {
      const own = rules.filter(
        (r) => r.level === level && (r.source === "built-in") === builtIn,
      );
      if (own.length === 0) continue;
      const matcher = ignore().add(
        own.map((r, i) => ({ pattern: r.pattern, mark: String(i) })),
      );
      lists.push({ matcher, rules: own });
    }
    byLevel[level] = lists;
  }
  cache.set(rules, byLevel);
  return byLevel;
}

/**
 * A necessary condition, checked before the gitignore library: a pattern can match a path only if each run of plain
 * characters in it (between `*`, `?`, `[...]` and `\\`) appears in the path, case aside (compared in upper case,
 * as a case-insensitive regular expression compares). Most paths a call changes
 * contain none of the protected patterns' runs, and the library compiles a regular expression per pattern on its
 * first test, about 3 ms of every tool call. Negated patterns only take paths back out, so only the others count.
 */
function mayMatch(rules: readonly ProtectedRule[], repoPath: string): boolean {
  const path = repoPath.toUpperCase();
  return literalRuns(rules).some((runs) => runs.every((r) => path.includes(r)));
}

const runsCache = new WeakMap<readonly ProtectedRule[], string[][]>();

function literalRuns(rules: readonly ProtectedRule[]): string[][] {
  const hit = runsCache.get(rules);
  if (hit) return hit;
  const runs = rules
    .filter((r) => !r.pattern.startsWith("!"))
    .map((r) =>
      r.pattern
        .toUpperCase()
        .split(/\*+|\?|\[[^\]]*\]?|\\/)
        .map((run) => run.replace(/^\/+|\/+$/g, ""))
        .filter((run) => run !== ""),
    );
  runsCache.set(rules, runs);
  return runs;
}
