import { describe, expect, it } from "vitest";
import { findProtection } from "../../../../src/core/guards/protected-match.ts";
import {
  BUILT_IN_RULES,
  parseProtectedRules,
} from "../../../../src/core/guards/protected-rules.ts";

const FILE = ".claude/protected-files.txt";

describe("parseProtectedRules", () => {
  it("reads `LEVEL pattern`, `LEVEL: pattern` and [LEVEL] sections, ignoring comments", () => {
    const { rules, diagnostics } = parseProtectedRules(
      "# secrets\nHARD_BLOCK .env\nBLOCK: package-lock.json\n\n[WARN]\nREADME.md  # docs\ndocs/**\n",
      FILE,
    );
    expect(diagnostics).toEqual([]);
    expect(rules.map((r) => [r.level, r.pattern, r.source])).toEqual([
      ["HARD_BLOCK", ".env", `${FILE}:2`],
      ["BLOCK", "package-lock.json", `${FILE}:3`],
      ["WARN", "README.md", `${FILE}:6`],
      ["WARN", "docs/**", `${FILE}:7`],
    ]);
  });

  it("reports a line without a level and an unknown section with file and line", () => {
    const { diagnostics } = parseProtectedRules("secret.txt\n[LOUD]\n", FILE);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["protected-level-missing", 1],
      ["protected-level-unknown", 2],
    ]);
    expect(diagnostics[0]?.message).toContain("HARD_BLOCK <pattern>");
  });
});

describe("findProtection", () => {
  const { rules } = parseProtectedRules(
    "HARD_BLOCK .env*\nBLOCK /config/\nWARN *.lock\nBLOCK src/**/secret?.ts\n",
    FILE,
  );
  it.each([
    [".env", "HARD_BLOCK"],
    ["app/.env.local", "HARD_BLOCK"],
    ["config/db.yml", "BLOCK"],
    ["sub/config/db.yml", null],
    ["yarn.lock", "WARN"],
    ["src/a/b/secret1.ts", "BLOCK"],
    ["src/secret1.ts", "BLOCK"],
    ["src/a.ts", null],
  ])("%s → %s", (path, level) => {
    expect(findProtection(rules, path)?.level ?? null).toBe(level);
  });

  it("protects the runtime folder and git's data whatever the file says", () => {
    expect(
      findProtection(BUILT_IN_RULES, ".claude/playbook/records/x.json")?.level,
    ).toBe("HARD_BLOCK");
    expect(findProtection(BUILT_IN_RULES, ".git/config")?.level).toBe(
      "HARD_BLOCK",
    );
    expect(findProtection(BUILT_IN_RULES, ".claude/settings.json")?.level).toBe(
      "BLOCK",
    );
  });

  it("picks the strictest of several matching rules", () => {
    const both = parseProtectedRules(
      "WARN *.md\nHARD_BLOCK SECRET.md\n",
      FILE,
    ).rules;
    expect(findProtection(both, "SECRET.md")?.level).toBe("HARD_BLOCK");
  });
});

describe("findProtection reads patterns as gitignore does", () => {
  it("matches a character class: `*.[ch]` covers C sources and headers, not other files", () => {
    const { rules } = parseProtectedRules("BLOCK *.[ch]\n", FILE);
    expect(findProtection(rules, "src/main.c")?.level).toBe("BLOCK");
    expect(findProtection(rules, "include/api.h")?.level).toBe("BLOCK");
    expect(findProtection(rules, "src/main.d")).toBeNull();
    expect(findProtection(rules, "src/main.cc")).toBeNull();
  });

  it("a `!pattern` takes a file back out of its level, as a later gitignore line does", () => {
    const { rules, diagnostics } = parseProtectedRules(
      "[BLOCK]\ngenerated/**\n!generated/README.md\n[WARN]\n*.md\n",
      FILE,
    );
    expect(diagnostics).toEqual([]);
    expect(findProtection(rules, "generated/api.ts")?.level).toBe("BLOCK");
    // Unblocked at BLOCK, still warned about by the WARN rule for every .md.
    expect(findProtection(rules, "generated/README.md")?.level).toBe("WARN");
    expect(findProtection(rules, "generated/README.md")?.source).toBe(
      `${FILE}:5`,
    );
  });

  it("a negation cannot take back the built-in protection of records, git and settings", () => {
    const { rules } = parseProtectedRules(
      "WARN !.claude/playbook/**\nWARN !.git/**\nWARN !.claude/settings.json\n",
      FILE,
    );
    const all = [...BUILT_IN_RULES, ...rules];
    expect(findProtection(all, ".claude/playbook/records/x.json")?.level).toBe(
      "HARD_BLOCK",
    );
    expect(findProtection(all, ".git/config")?.level).toBe("HARD_BLOCK");
    expect(findProtection(all, ".claude/settings.json")?.level).toBe("BLOCK");
  });

  it("escapes work: `\\#notes` protects a file named #notes", () => {
    const { rules } = parseProtectedRules("HARD_BLOCK \\#notes\n", FILE);
    expect(findProtection(rules, "#notes")?.level).toBe("HARD_BLOCK");
  });

  it("reports which line matched", () => {
    const { rules } = parseProtectedRules(
      "WARN *.lock\nBLOCK /config/\n",
      FILE,
    );
    expect(findProtection(rules, "config/db.yml")?.source).toBe(`${FILE}:2`);
  });
});
