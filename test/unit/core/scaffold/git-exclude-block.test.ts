import { describe, expect, it } from "vitest";
import {
  EXCLUDE_BEGIN,
  EXCLUDE_END,
  planExcludeLines,
  removeExcludeBlock,
  upsertExcludeBlock,
} from "../../../../src/core/scaffold/git-exclude-block.ts";

describe("the exclude block of the sandbox's mount points", () => {
  it("anchors each missing name at the project's folder, and takes a real folder back out", () => {
    expect(
      planExcludeLines("", new Set([".bash_profile", ".vscode", ".mcp.json"])),
    ).toEqual(["/.bash_profile", "/.mcp.json", "/.vscode", "!/.vscode/"]);
    expect(planExcludeLines("apps/web/", new Set([".bashrc"]))).toEqual([
      "/apps/web/.bashrc",
    ]);
    expect(planExcludeLines("my [app]/", new Set([".bashrc"]))).toEqual([
      "/my\\ \\[app\\]/.bashrc",
    ]);
  });

  it("names only what it is given: a name the project has is left to git", () => {
    expect(planExcludeLines("", new Set())).toEqual([]);
  });

  it.each([
    ["no file", null, `${EXCLUDE_BEGIN}\n/.bashrc\n${EXCLUDE_END}\n`],
    [
      "git's template without a last newline",
      "# comment",
      `# comment\n${EXCLUDE_BEGIN}\n/.bashrc\n${EXCLUDE_END}\n`,
    ],
    [
      "CRLF lines",
      "# a\r\n",
      `# a\r\n${EXCLUDE_BEGIN}\r\n/.bashrc\r\n${EXCLUDE_END}\r\n`,
    ],
    [
      "a block to replace between the user's lines",
      `a\n${EXCLUDE_BEGIN}\n/.old\n${EXCLUDE_END}\nb\n`,
      `a\nb\n${EXCLUDE_BEGIN}\n/.bashrc\n${EXCLUDE_END}\n`,
    ],
  ])("writes the block over %s", (_name, before, after) => {
    expect(upsertExcludeBlock(before, ["/.bashrc"])).toBe(after);
  });

  it("takes out exactly its block, and nothing when there is none", () => {
    expect(
      removeExcludeBlock(`a\n${EXCLUDE_BEGIN}\n/.bashrc\n${EXCLUDE_END}\nb\n`),
    ).toBe("a\nb\n");
    expect(removeExcludeBlock("a\n/.bashrc\n")).toBe("a\n/.bashrc\n");
    expect(upsertExcludeBlock("a\n", [])).toBe("a\n");
  });
});
