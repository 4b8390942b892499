import { describe, expect, it } from "vitest";
import { parseVerdictBlocks } from "../../../../src/core/records/verdict-block.ts";

const fence = "```";

describe("parseVerdictBlocks", () => {
  it("reads a verdict block at the end of the critic's message", () => {
    const message = `I ran the tests and read the diff.

${fence}verdict
phase: p1
verdict: PASS
evidence: npx vitest run exits 0; LoginForm renders both error states
${fence}
`;
    expect(parseVerdictBlocks(message)).toEqual({
      verdicts: [
        {
          phase: "p1",
          verdict: "PASS",
          evidence:
            "npx vitest run exits 0; LoginForm renders both error states",
        },
      ],
      problems: [],
    });
  });

  it.each([
    [
      "a crit info string",
      `${fence}crit\nphase: p2\nverdict: FAIL\nevidence: x\n${fence}`,
      { phase: "p2", verdict: "FAIL", evidence: "x" },
    ],
    [
      "a tilde fence and CRLF",
      "~~~verdict\r\nphase: p1\r\nverdict: PASS\r\nevidence: ok\r\n~~~\r\n",
      { phase: "p1", verdict: "PASS", evidence: "ok" },
    ],
    [
      "lower-case pass",
      `${fence}verdict\nphase: p1\nverdict: pass\nevidence: ok\n${fence}`,
      { phase: "p1", verdict: "PASS", evidence: "ok" },
    ],
    [
      "quoted values",
      `${fence}verdict\nphase: "p1"\nverdict: 'FAIL'\nevidence: "tests fail: \\"2 failed\\""\n${fence}`,
      { phase: "p1", verdict: "FAIL", evidence: 'tests fail: "2 failed"' },
    ],
    [
      "a literal block",
      `${fence}verdict\nphase: p1\nverdict: PASS\nevidence: |\n  ran npm test\n  12 passed\n${fence}`,
      { phase: "p1", verdict: "PASS", evidence: "ran npm test\n12 passed" },
    ],
    [
      "a folded block",
      `${fence}verdict\nphase: p1\nverdict: PASS\nevidence: >\n  ran npm test,\n  12 passed\n${fence}`,
      { phase: "p1", verdict: "PASS", evidence: "ran npm test, 12 passed" },
    ],
    [
      "continuation lines",
      `${fence}verdict\nphase: p1\nverdict: PASS\nevidence: ran npm test,\n  12 passed\n${fence}`,
      { phase: "p1", verdict: "PASS", evidence: "ran npm test, 12 passed" },
    ],
    [
      "a list under evidence",
      `${fence}verdict\nphase: p1\nverdict: PASS\nevidence:\n  - ran npm test\n  - 12 passed\n${fence}`,
      { phase: "p1", verdict: "PASS", evidence: "- ran npm test\n- 12 passed" },
    ],
    [
      "comments and a key in another order",
      `${fence}verdict\n# my verdict\nevidence: ok # short\nverdict: PASS\nphase: p3\n${fence}`,
      { phase: "p3", verdict: "PASS", evidence: "ok" },
    ],
    [
      "an unclosed fence",
      `${fence}verdict\nphase: p1\nverdict: PASS\nevidence: ok`,
      { phase: "p1", verdict: "PASS", evidence: "ok" },
    ],
    [
      "an indented fence",
      `  ${fence}verdict\n  phase: p1\n  verdict: PASS\n  evidence: ok\n  ${fence}`,
      { phase: "p1", verdict: "PASS", evidence: "ok" },
    ],
    [
      "a numeric phase",
      `${fence}verdict\nphase: 1\nverdict: FAIL\nevidence: ok\n${fence}`,
      { phase: "1", verdict: "FAIL", evidence: "ok" },
    ],
  ])("reads %s", (_name, message, verdict) => {
    expect(parseVerdictBlocks(message)).toEqual({
      verdicts: [verdict],
      problems: [],
    });
  });

  it("reads every verdict block, in order", () => {
    const message = `${fence}verdict\nphase: p1\nverdict: PASS\nevidence: a\n${fence}\ntext\n${fence}verdict\nphase: p2\nverdict: FAIL\nevidence: b\n${fence}`;
    expect(parseVerdictBlocks(message).verdicts.map((v) => v.phase)).toEqual([
      "p1",
      "p2",
    ]);
  });

  it.each([
    ["no fenced block", "All good, PASS."],
    [
      "another language",
      `${fence}yaml\nphase: p1\nverdict: PASS\nevidence: ok\n${fence}`,
    ],
    [
      "a verdict fence inside a longer fence",
      `${fence}\`markdown\n${fence}verdict\nphase: p1\nverdict: PASS\nevidence: ok\n${fence}\n${fence}\``,
    ],
    ["an empty message", ""],
  ])("finds nothing in %s", (_name, message) => {
    expect(parseVerdictBlocks(message)).toEqual({ verdicts: [], problems: [] });
  });

  it.each([
    [
      "an empty block",
      `${fence}verdict\n${fence}`,
      /block 1 without `phase`, `verdict`, `evidence`/,
    ],
    [
      "no evidence",
      `${fence}verdict\nphase: p1\nverdict: PASS\n${fence}`,
      /block 1 without `evidence`,/,
    ],
    [
      "an empty evidence",
      `${fence}verdict\nphase: p1\nverdict: PASS\nevidence: ""\n${fence}`,
      /without `evidence`/,
    ],
    [
      "a null phase",
      `${fence}verdict\nphase: null\nverdict: PASS\nevidence: ok\n${fence}`,
      /without `phase`/,
    ],
    [
      "a wrong verdict",
      `${fence}verdict\nphase: p1\nverdict: MOSTLY\nevidence: ok\n${fence}`,
      /`verdict: MOSTLY` in verdict block 1, expected PASS or FAIL/,
    ],
    [
      "a line that is no key",
      `${fence}verdict\nphase: p1\nLooks good to me\nverdict: PASS\nevidence: ok\n${fence}`,
      /Unexpected line `Looks good to me` in verdict block 1/,
    ],
    [
      "a repeated key",
      `${fence}verdict\nphase: p1\nphase: p2\nverdict: PASS\nevidence: ok\n${fence}`,
      /second `phase:`/,
    ],
  ])("reports %s", (_name, message, problem) => {
    const result = parseVerdictBlocks(message);
    expect(result.verdicts).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(problem);
  });

  it("keeps good blocks and reports the bad one by number", () => {
    const message = `${fence}verdict\nphase: p1\nverdict: PASS\nevidence: ok\n${fence}\n${fence}verdict\nphase: p2\n${fence}`;
    const result = parseVerdictBlocks(message);
    expect(result.verdicts).toHaveLength(1);
    expect(result.problems).toEqual([
      expect.stringMatching(/verdict block 2 without `verdict`, `evidence`/),
    ]);
  });

  it("never throws on arbitrary text", () => {
    for (const message of [
      "```verdict",
      "```verdict\n:",
      '```verdict\nphase: "unclosed',
      "```verdict\nevidence: |",
      "\u0000```crit\n\u0000",
    ])
      expect(() => parseVerdictBlocks(message)).not.toThrow();
  });
});
