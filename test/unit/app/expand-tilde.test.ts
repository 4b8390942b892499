import { describe, expect, it } from "vitest";
import { expandTilde } from "../../../src/app/collect-bash-changes.ts";

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

  it("leaves `~` alone when the home folder is not known", () => {
    expect(expandTilde("~/x", "/repo", null)).toBe("~/x");
  });
});
