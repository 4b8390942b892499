import { describe, expect, it } from "vitest";
import { BUILT_IN_RULES } from "../../../../src/core/guards/protected-rules.ts";
import type { ProtectedRule } from "../../../../src/core/guards/protected-rules.ts";
import {
  isKnownTool,
  judgeUnknownToolPath,
  stringsInToolInput,
} from "../../../../src/core/guards/unknown-tool.ts";

const RULES: readonly ProtectedRule[] = [
  ...BUILT_IN_RULES,
  { level: "HARD_BLOCK", pattern: ".env*", source: "t:1" },
  { level: "BLOCK", pattern: "secrets/**", source: "t:2" },
  { level: "WARN", pattern: "package.json", source: "t:3" },
];

describe("tools the guards know", () => {
  it.each([
    ["Read", true],
    ["Bash", true],
    ["Agent", true],
    ["ReadMcpResourceTool", true],
    ["mcp__filesystem__write_file", false],
    ["mcp__github__create_issue", false],
    ["SomeFutureTool", false],
  ])("%s: %s", (tool, known) => {
    expect(isKnownTool(tool)).toBe(known);
  });
});

describe("a path named by a tool the guards do not know", () => {
  it.each([
    [".claude/playbook/records/x.json", "records"],
    [".claude/playbook", "records"],
    [".claude/playbook.json", "records"],
    [".claude/protected-files.txt", "records"],
    [".claude/agents/reviewer.md", "records"],
    [".claude/settings.json", "records"],
    [".claude/settings.local.json", "records"],
    [".claude/hooks/playbook.cjs", "records"],
    [".git/config", "records"],
    [".git", "records"],
    ["node_modules/playbook-kit/dist/hook.cjs", "records"],
    ["node_modules/.bin/playbook", "records"],
    // A folder holding guarded files: moving or deleting it reaches them.
    [".claude", "records"],
    ["node_modules", "records"],
    ["state.md", "document"],
    ["plan/playbook-login-form.md", "document"],
    ["plan/archive/2026/playbook-old.md", "document"],
    ["plan/notes.md", "document"],
    ["plan", "document"],
    [".env.local", "records"],
    ["secrets/key.pem", "records"],
    // Ordinary paths, WARN files and the repository itself are not refused.
    ["src/app.ts", null],
    ["package.json", null],
    [".claude/commands/x.md", null],
    ["", null],
  ])("%s → %s", (path, kind) => {
    expect(judgeUnknownToolPath(path, RULES, "strict")?.kind ?? null).toBe(
      kind,
    );
  });

  it("a BLOCK file counts only in strict mode, as for the built-in tools; trust paths in every mode", () => {
    expect(
      judgeUnknownToolPath("secrets/key.pem", RULES, "trusted"),
    ).toBeNull();
    expect(
      judgeUnknownToolPath(".claude/playbook/x", RULES, "developer")?.kind,
    ).toBe("records");
    expect(judgeUnknownToolPath("state.md", RULES, "developer")?.kind).toBe(
      "document",
    );
  });
});

describe("the strings a tool input names", () => {
  it("every string value and key, nested, and the words of a short one", () => {
    const found = stringsInToolInput({
      path: "/repo/.claude/playbook/records/x.json",
      options: { targets: ["a.txt", { deep: "file:///repo/state.md" }] },
      command: "rm -rf .claude && echo 'done'",
      "state.md": 1,
    });
    expect(found).toEqual(
      expect.arrayContaining([
        "/repo/.claude/playbook/records/x.json",
        "a.txt",
        "file:///repo/state.md",
        "rm -rf .claude && echo 'done'",
        ".claude",
        "state.md",
      ]),
    );
  });

  it("a long string (a file's content) is read as a whole value only", () => {
    const content = `${"line\n".repeat(300)}see state.md`;
    const found = stringsInToolInput({ path: "docs/x.md", content });
    expect(found).toContain("docs/x.md");
    expect(found).not.toContain("state.md");
  });
});
