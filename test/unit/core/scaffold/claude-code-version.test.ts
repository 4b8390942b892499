import { describe, expect, it } from "vitest";
import {
  MINIMUM_CLAUDE_CODE,
  parseClaudeCodeVersion,
} from "../../../../src/core/scaffold/claude-code-version.ts";

describe("parseClaudeCodeVersion", () => {
  it.each([
    ["2.1.331 (Claude Code)", [2, 1, 331]],
    ["2.1.139 (Claude Code)\n", [2, 1, 139]],
    ["claude 1.0.38", [1, 0, 38]],
    ["Claude Code", null],
    ["", null],
  ])("%j -> %j", (text, expected) => {
    expect(parseClaudeCodeVersion(text)).toEqual(expected);
  });

  it("reads the minimum itself", () => {
    expect(parseClaudeCodeVersion(MINIMUM_CLAUDE_CODE)).toEqual([2, 1, 295]);
  });
});
