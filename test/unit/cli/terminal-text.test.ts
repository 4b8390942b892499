import { describe, expect, it } from "vitest";
import { toTerminalText } from "../../../src/cli/print/terminal-text.ts";

describe("toTerminalText", () => {
  it.each([
    ["ESC and BEL", "a\u001b]0;pwned\u0007b", "a\u241b]0;pwned\u2407b"],
    ["NUL", "a\u0000b", "a\u2400b"],
    ["a right-to-left override", "evil\u202Etxt.exe", "evil\uFFFDtxt.exe"],
    [
      "isolates and embeddings",
      "\u2066a\u2069\u202Ab\u202C",
      "\uFFFDa\uFFFD\uFFFDb\uFFFD",
    ],
  ])("replaces %s one character for one", (_name, input, expected) => {
    expect(toTerminalText(input)).toBe(expected);
    expect([...toTerminalText(input)]).toHaveLength([...input].length);
  });

  it("keeps tabs and ordinary text, including Japanese, Korean and Arabic", () => {
    const text = "p1\t適切に\t적절히\tمرحبا";
    expect(toTerminalText(text)).toBe(text);
  });
});
