import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripNonProse } from "../../../../src/core/intent/strip-non-prose.ts";

describe("stripNonProse", () => {
  it.each([
    [
      "a ``` fence",
      "fix it\n```ts\nconst a = 1;\n```\nthen test",
      "fix it\nthen test",
    ],
    [
      "a ~~~ fence",
      "before\n~~~\nadd a dark mode\n~~~\nafter",
      "before\nafter",
    ],
    [
      "an unclosed fence, to the end",
      "look at this ```js\nadd(1, 2)\nfix()",
      "look at this",
    ],
    ["a fence on one line", "so ```add x``` ok", "so\nok"],
    [
      "markdown quote lines",
      "> please fix the flaky test\n>> and add one\nis it flaky?",
      "is it flaky?",
    ],
    ["inline code", "rename `parseState` to ``a`b``", "rename to"],
    [
      "POSIX and relative paths",
      "see src/core/a.ts, ./x, ../y/z, ~/w and /etc/passwd",
      "see , , , and",
    ],
    ["Windows paths", "open C:\\repo\\src\\a.ts and src\\b.ts", "open and"],
    [
      "bare file names",
      "update README.md and state.md, keep .js files",
      "update and , keep files",
    ],
    [
      "URLs",
      "check https://example.com/a?b=1#c and www.example.org/x",
      "check and",
    ],
    [
      "pasted JSON",
      'got {"error": "fix it", "list": [1, 2]} and [{"a": "}"}] done',
      "got and done",
    ],
    [
      "multi-line JSON",
      'config:\n{\n  "guards": ["add"]\n}\nok?',
      "config:\nok?",
    ],
    [
      "not JSON",
      "{not json} and [x] and a [link](y)",
      "{not json} and [x] and a [link](y)",
    ],
    [
      "double and single quotes",
      "he wrote: \"add a dark mode\" and 'fix the bug' but don't",
      "he wrote: and but don't",
    ],
    [
      "apostrophes stay",
      "it's a test of users' data, isn't it",
      "it's a test of users' data, isn't it",
    ],
    ["typographic quotes", "“add dark mode” ‘fix it’ «drop it» ok", "ok"],
    [
      "Japanese quotes",
      "上司に「ダークモードを追加して」『直して』と言われた",
      "上司に と言われた",
    ],
    [
      "Korean with quotes",
      '팀장님이 "다크 모드 추가해줘"라고 했어',
      "팀장님이 라고 했어",
    ],
    ["CRLF", "a\r\nb\rc", "a\nb\nc"],
    ["empty", "", ""],
  ])("%s", (_name, prompt, expected) => {
    expect(stripNonProse(prompt)).toBe(expected);
  });

  it("never throws and never grows the text", () => {
    const piece = fc.constantFrom(
      "```",
      "~~~",
      "`",
      '"',
      "'",
      "“",
      "」",
      "「",
      "{",
      "}",
      "[",
      "]",
      "/",
      "\\",
      "\n",
      "> ",
      "a",
      "修正",
      " ",
      ":",
      '\\"',
    );
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 200 }), (prompt) => {
        expect(stripNonProse(prompt).length).toBeLessThanOrEqual(
          prompt.length + 1,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ["open quotes", "「".repeat(100_000)],
    ["open JSON", '{"'.repeat(50_000)],
    ["one long word", "a".repeat(200_000)],
    ["long path-like word", "a.".repeat(100_000)],
    ["backticks", "`".repeat(100_000)],
  ])("stays linear on %s", (_name, prompt) => {
    expect(typeof stripNonProse(prompt)).toBe("string");
  });
});
