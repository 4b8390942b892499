import { describe, expect, it } from "vitest";
import { parseProtectedRules } from "../../../../src/core/guards/protected-rules.ts";
import {
  planProtectedBoundary,
  toSandboxPath,
} from "../../../../src/core/paths/protected-sandbox.ts";

const plan = (text: string, mode: "strict" | "trusted" = "strict") =>
  planProtectedBoundary(
    parseProtectedRules(text, ".claude/protected-files.txt").rules,
    mode,
  );

describe("toSandboxPath: a gitignore pattern as Claude Code's sandbox takes it on Linux", () => {
  it.each([
    ["/deploy/production.key", "deploy/production.key", false, false],
    ["deploy/production.key", "deploy/production.key", false, false],
    [".github/workflows/**", ".github/workflows", true, false],
    ["/secrets/", "secrets", true, false],
    ["CLAUDE.md", "CLAUDE.md", false, true],
    ["my\\ file.txt", "my file.txt", false, true],
  ])("%s -> %s", (pattern, path, folder, anywhere) => {
    expect(toSandboxPath(pattern)).toEqual({ path, folder, anywhere });
  });

  it.each([
    ["*.key"],
    [".env.*"],
    ["src/**/*.ts"],
    ["config/[ab].json"],
    ["**"],
    ["/"],
    ["../outside"],
  ])("%s cannot be held: it is reported, never passed on", (pattern) => {
    expect(toSandboxPath(pattern)).toHaveProperty("why");
  });
});

describe("planProtectedBoundary", () => {
  it("holds HARD_BLOCK always and BLOCK only in strict, with file-tool rules for HARD_BLOCK (a BLOCK rule's would outlive a switch to trusted); WARN never", () => {
    const text =
      "HARD_BLOCK /deploy/production.key\nBLOCK .github/workflows/**\nBLOCK CLAUDE.md\nWARN .env\n";
    expect(plan(text, "strict")).toEqual({
      denyWrite: ["deploy/production.key", ".github/workflows", "CLAUDE.md"],
      deny: ["Edit(/deploy/production.key)", "Edit(/deploy/production.key/**)"],
      unheld: [],
    });
    expect(plan(text, "trusted").denyWrite).toEqual(["deploy/production.key"]);
  });

  it("leaves out a path that does not exist yet, which the sandbox would cover with a mount point for every command", () => {
    const rules = parseProtectedRules(
      "HARD_BLOCK /deploy/k\nHARD_BLOCK /.gitlab-ci.yml\n",
      ".claude/protected-files.txt",
    ).rules;
    expect(
      planProtectedBoundary(rules, "strict", (p) => p === "deploy/k"),
    ).toEqual({
      denyWrite: ["deploy/k"],
      deny: ["Edit(/deploy/k)", "Edit(/deploy/k/**)"],
      unheld: [],
    });
  });

  it("reports a glob the sandbox would skip, with the line and what to do", () => {
    const { denyWrite, unheld } = plan("HARD_BLOCK *.key\n");
    expect(denyWrite).toEqual([]);
    expect(unheld.map((u) => [u.rule.source, u.why, u.next])).toEqual([
      [
        ".claude/protected-files.txt:1",
        "`*.key` is held by the hook alone: the sandbox takes only plain paths and `folder/**`",
        expect.stringContaining("/deploy/production.key"),
      ],
    ]);
  });

  it("a negation takes out an entry it names exactly, and is reported when it reopens part of a folder", () => {
    expect(plan("HARD_BLOCK /a.key\nHARD_BLOCK !/a.key\n").denyWrite).toEqual(
      [],
    );
    const inside = plan(
      "HARD_BLOCK /secrets/**\nHARD_BLOCK !/secrets/public.txt\n",
    );
    expect(inside.denyWrite).toEqual(["secrets"]);
    expect(inside.unheld[0]?.why).toContain("reopens paths inside a folder");
  });

  it("never makes the repair path or the whole project read-only, and leaves the trust paths to init", () => {
    const { denyWrite, unheld } = plan(
      "HARD_BLOCK state.md\nHARD_BLOCK /plan/**\nHARD_BLOCK **\nBLOCK .claude/agents/**\n",
    );
    expect(denyWrite).toEqual([]);
    expect(unheld.map((u) => u.rule.pattern)).toEqual([
      "state.md",
      "/plan/**",
      "**",
    ]);
  });
});
