import { describe, expect, it } from "vitest";
import { expandTilde } from "../../../../src/core/bash/expand-tilde.ts";

describe("expandTilde", () => {
  it.each([
    ["~", "/home/dev"],
    ["~/x", "/home/dev/x"],
    ["~+", "/repo/sub"],
    ["~+/.claude/playbook", "/repo/sub/.claude/playbook"],
    ["~-", "$TILDE"],
    ["~-/x", "$TILDE/x"],
    ["~root/x", "$TILDE/x"],
    ["~2", "$TILDE"],
    ["a~b", "a~b"],
    ["./~", "./~"],
  ])("%s → %s", (word, expected) => {
    expect(expandTilde(word, "/repo/sub", "/home/dev")).toBe(expected);
  });

  it.each([
    ["$PWD", "/repo/sub"],
    ["${PWD}/.claude", "/repo/sub/.claude"],
    ["$(pwd)/state.md", "/repo/sub/state.md"],
    ["$(pwd -P)/x", "/repo/sub/x"],
    ["`pwd`/x", "/repo/sub/x"],
    ["$HOME/x", "/home/dev/x"],
    ["${HOME}", "/home/dev"],
    ["$OLDPWD/x", "$TILDE/x"],
    ["$CLAUDE_PROJECT_DIR/.claude/playbook", "/repo/.claude/playbook"],
    ["${CLAUDE_PROJECT_DIR}", "/repo"],
    ["$(git rev-parse --show-toplevel)/state.md", "/repo/state.md"],
    // Only the whole name, at the start: anything else stays a run-time value.
    ["$PWDX/a", "$PWDX/a"],
    ["x/$PWD", "x/$PWD"],
    ["$(pwd)x", "$(pwd)x"],
  ])("the spelling %s → %s", (word, expected) => {
    expect(expandTilde(word, "/repo/sub", "/home/dev", "/repo")).toBe(expected);
  });

  it("leaves `~` alone when the home folder is not known", () => {
    expect(expandTilde("~/x", "/repo", null)).toBe("~/x");
  });
});
