import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { findProtection } from "../../../../src/core/guards/protected-match.ts";
import type { ProtectedRule } from "../../../../src/core/guards/protected-rules.ts";

const PATTERNS = [
  "CLAUDE.md",
  ".env",
  ".env.*",
  "/secrets/",
  "docs/**/private/*.md",
  "**/*.pem",
  "config/[ab]*.json",
  "build?/out",
  "a\\#b",
  "Σ-notes/**",
  "*",
  "!keep.md",
  ".claude/agents/**",
  "migrations/**/2024-*.sql",
];
const PATHS = [
  "CLAUDE.md",
  "claude.MD",
  "docs/CLAUDE.md",
  "CLAUDE.md/inner.txt",
  ".env",
  ".ENV.local",
  "app/.env.production",
  "secrets/key.txt",
  "src/secrets/key.txt",
  "docs/x/y/private/a.md",
  "docs/private/a.md",
  "certs/site.PEM",
  "config/a1.json",
  "config/c1.json",
  "build1/out",
  "build/out",
  "a#b",
  "ς-notes/x",
  "keep.md",
  ".claude/agents/reviewer.md",
  "migrations/x/2024-01.sql",
  "src/app.ts",
  "src/deep/file.tsx",
];

/** What the gitignore library alone says: the first level whose list has a match. */
function reference(rules: ProtectedRule[], path: string): string | null {
  for (const level of ["HARD_BLOCK", "BLOCK", "WARN"]) {
    const own = rules.filter((r) => r.level === level);
    if (own.length === 0) continue;
    const m = ignore().add(own.map((r) => r.pattern));
    if (m.ignores(path)) return level;
  }
  return null;
}

describe("the protected matcher's literal pre-check never hides a match", () => {
  it.each(PATTERNS.filter((p) => !p.startsWith("!")))(
    "pattern %s agrees with the gitignore library on every path",
    (pattern) => {
      for (const extra of [[], ["!keep.md"]]) {
        const rules: ProtectedRule[] = [pattern, ...extra].map((p) => ({
          level: "BLOCK",
          pattern: p,
          source: "test",
        }));
        for (const path of PATHS)
          expect(
            findProtection(rules, path)?.level ?? null,
            `${pattern} ${extra.join(" ")} on ${path}`,
          ).toBe(reference(rules, path));
      }
    },
  );
});
