import { describe, expect, it } from "vitest";
import {
  dotfileVariants,
  isWholeFolderGlob,
  shellGlob,
} from "../../../../src/core/paths/shell-glob.ts";

describe("shellGlob matches as bash expands a word", () => {
  it.each([
    ["/r/*", "/r/state.md", true],
    ["/r/*", "/r/.claude", false],
    ["/r/?env", "/r/.env", false],
    ["/r/[.]env", "/r/.env", false],
    ["/r/.*", "/r/.claude", true],
    ["/r/.e*", "/r/.env", true],
    ["/r/*.[ch]", "/r/io.c", true],
    ["/r/*.[ch]", "/r/io.d", false],
    ["/r/[!a]*", "/r/b.md", true],
    ["/r/[!a]*", "/r/a.md", false],
    ["/r/[a-c]x", "/r/bx", true],
    ["/r/\\*", "/r/*", true],
    ["/r/\\*", "/r/a", false],
    ["/r/*/records", "/r/plan/records", true],
    ["/r/*/records", "/r/.claude/records", false],
    ["/r/**", "/r/.claude/playbook/records/x.json", true],
    ["/r/**/x.json", "/r/.claude/playbook/x.json", true],
    ["/r/a*b", "/r/a/b", false],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(shellGlob(glob).matches(path)).toBe(expected);
  });

  it("find's dotfile rule: with dotfiles, `*` matches a leading dot", () => {
    expect(shellGlob("*.json", { dotfiles: true }).matches(".x.json")).toBe(
      true,
    );
    expect(shellGlob("*.JSON", { ignoreCase: true }).matches("a.json")).toBe(
      true,
    );
  });
});

describe("what removing a glob's matches reaches", () => {
  it("a path, when the glob matches it or a folder above it", () => {
    const glob = shellGlob("/r/pl*");
    expect(glob.reaches("/r/plan/playbook-x.md")).toBe(true);
    expect(glob.reaches("/r/src/a.ts")).toBe(false);
  });

  it("inside a folder, when the glob can match something below it: `.claude/*/records` reaches `.claude/playbook`", () => {
    const glob = shellGlob("/r/.claude/*/records");
    expect(glob.matches("/r/.claude/playbook")).toBe(false);
    expect(glob.reaches("/r/.claude/playbook")).toBe(false);
    expect(glob.reachesInside("/r/.claude/playbook")).toBe(true);
    expect(shellGlob("/r/*/records").reachesInside("/r/.claude")).toBe(false);
    expect(shellGlob("/r/.*/objects").reachesInside("/r/.git")).toBe(true);
  });
});

describe("matching cost", () => {
  it("an adversarial pattern against a long path answers (no backtracking blow-up)", () => {
    const glob = `/tmp/${"**?".repeat(200)}x`;
    const path = `/tmp/${"a/".repeat(300)}${"a".repeat(300)}`;
    const pattern = shellGlob(glob);
    expect(pattern.matches(path)).toBe(false);
    expect(pattern.reaches(path)).toBe(false);
    expect(pattern.reachesInside(path)).toBe(false);
    const deep = shellGlob(`/tmp/${"**/?/".repeat(200)}x`);
    const short = `/tmp/${"a/".repeat(300)}a`;
    expect(deep.matches(short)).toBe(false);
    expect(deep.reaches(short)).toBe(false);
    expect(deep.reachesInside(short)).toBe(true);
    const name = `${"*a".repeat(300)}b`;
    expect(shellGlob(name).matches("a".repeat(5000))).toBe(false);
  });
});

describe("dotfileVariants", () => {
  it.each([
    ["*.json", [".*.json", ".json"]],
    ["*", [".*"]],
    ["?env", [".env"]],
    ["[.]env", [".env"]],
    ["[a]env", []],
    [".env", [".env"]],
    ["a*", []],
  ])("%s → %j", (pattern, variants) => {
    expect(dotfileVariants(pattern).sort()).toEqual([...variants].sort());
  });

  it("together with the pattern they match what find -name matches", () => {
    const names = [".json", ".x.json", "a.json", ".jsonx", "b"];
    for (const pattern of ["*.json", "*", "?json", "*.*"]) {
      const find = shellGlob(pattern, { dotfiles: true });
      const globs = [pattern, ...dotfileVariants(pattern)].map((g) =>
        shellGlob(g),
      );
      for (const name of names)
        expect(
          globs.some((g) => g.matches(name)),
          `${pattern} vs ${name}`,
        ).toBe(find.matches(name));
    }
  });
});

describe("isWholeFolderGlob", () => {
  it.each([
    ["/r/*", true],
    ["/r/.*", true],
    ["/r/**", true],
    ["/r/*.md", false],
  ])("%s → %s", (glob, expected) => {
    expect(isWholeFolderGlob(glob)).toBe(expected);
  });
});
