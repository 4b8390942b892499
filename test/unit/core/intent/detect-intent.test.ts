import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  detectIntent,
  type PromptLanguage,
} from "../../../../src/core/intent/detect-intent.ts";
import { GATED_PATTERNS } from "../../../../src/core/intent/patterns-en.ts";
import { readFixture } from "../../../helpers/read-fixture.ts";

interface CorpusEntry {
  prompt: string;
  work: boolean;
  note?: string;
}

describe("detectIntent on the labelled corpora", () => {
  it.each(["en", "ja", "ko"] as const)(
    "%s: precision >= 0.95 and recall >= 0.90 for work",
    (language) => {
      const corpus = JSON.parse(
        readFixture(`intent/${language}.json`),
      ) as CorpusEntry[];
      expect(corpus.length).toBeGreaterThanOrEqual(70);
      const wrong = { fp: [] as string[], fn: [] as string[] };
      let tp = 0;
      for (const { prompt, work } of corpus) {
        const predicted = detectIntent(prompt).intent === "work";
        if (predicted && work) tp++;
        else if (predicted) wrong.fp.push(prompt);
        else if (work) wrong.fn.push(prompt);
      }
      const precision = tp / (tp + wrong.fp.length);
      const recall = tp / (tp + wrong.fn.length);
      const detail = `${language}: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}; false positives ${JSON.stringify(wrong.fp)}; false negatives ${JSON.stringify(wrong.fn)}`;
      expect(precision, detail).toBeGreaterThanOrEqual(0.95);
      expect(recall, detail).toBeGreaterThanOrEqual(0.9);
    },
  );
});

describe("detectIntent", () => {
  it.each([
    ["implement the password reset flow", "work", "implement"],
    ["explain why this fails and fix it", "work", "fix"],
    ["Could you add TSDoc to the records module?", "work", "add"],
    ["don't touch the tests, just fix the parser", "work", "fix"],
    ["we need a retry around the GitHub calls", "work", "we need a"],
    ["implment caching", "work", "implment"],
    ["udpate the docs", "work", "udpate"],
    ["unable to run the tests, why?", "question", "why"],
    ["remote branch is behind, is that bad?", "question", "?"],
    ["how does the login flow work?", "question", "how"],
    ["How would I implement a custom guard?", "question", "how"],
    ["Don't change anything, just tell me what's wrong", "question", "tell me"],
    [
      'my boss wrote: "add a dark mode" — what should I answer?',
      "question",
      "what",
    ],
    ["```\n// TODO: implement retries\n```\nwhat is this?", "question", "what"],
    ["Make sense?", "question", "?"],
    ["ログイン機能を実装して", "work", "実装して"],
    ["修正お願いします", "work", "修正お願い"],
    ["`useAuth` フックのリファクタお願い", "work", "リファクタお願い"],
    ["ログイン機能はどう動いていますか？", "question", "どう"],
    ["パーサーはCRLFに対応していますか？", "question", "ますか"],
    [
      "上司から「ダークモードを追加して」と言われた。どうする？",
      "question",
      "どう",
    ],
    ["先輩に直してほしいって言われた", "other", null],
    ["로그인 기능 구현해줘", "work", "구현해줘"],
    ["이 버그 고쳐줘", "work", "고쳐줘"],
    ["리팩터링 ㄱㄱ", "work", "리팩터링 ㄱㄱ"],
    ["로그인 기능은 어떻게 동작해?", "question", "어떻게"],
    ["추가해줘서 고마워!", "other", null],
    ["hi", "other", null],
    ["thanks, that's perfect!", "other", null],
    ["/help", "other", null],
    ["", "other", null],
    ["ありがとう", "other", null],
    ["수고하셨습니다!", "other", null],
  ] as const)("%j → %s (%s)", (prompt, intent, matched) => {
    expect(detectIntent(prompt)).toMatchObject({ intent, matched });
  });

  it.each([
    ["add dark mode", ["en"]],
    ["ログインを実装して", ["ja"]],
    ["로그인 구현해줘", ["ko"]],
    ["npm run lint を実行して結果を見せて", ["en", "ja"]],
    ["fix the bug 그리고 테스트 추가해줘", ["en", "ko"]],
    ["```\nconst 実装 = 1\n```\nwhat is this?", ["en"]],
    ["", ["en"]],
  ] as const)("%j is tried as %j", (prompt, languages) => {
    expect(detectIntent(prompt).languages).toEqual<PromptLanguage[]>([
      ...languages,
    ]);
  });

  it.each([
    [
      "a work pattern",
      "ship the dark mode",
      { work: ["\\bship\\b"] },
      "work",
      "ship",
    ],
    [
      "notWork before built-in work",
      "add dark mode",
      { notWork: ["dark mode"] },
      "other",
      "dark mode",
    ],
    [
      "notWork before extra work",
      "deploy it?",
      { work: ["deploy"], notWork: ["deploy"] },
      "question",
      "deploy",
    ],
    ["case-insensitive", "SHIP IT", { work: ["ship it"] }, "work", "SHIP IT"],
    [
      "invalid sources are ignored",
      "add dark mode",
      { work: ["(["], notWork: ["*", "(?<"] },
      "work",
      "add",
    ],
    [
      "empty sources are ignored",
      "how does it work?",
      { work: [""], notWork: [""] },
      "question",
      "how",
    ],
    [
      "zero-width matches name the source",
      "go",
      { work: ["^(?=go)"] },
      "work",
      "^(?=go)",
    ],
    [
      "code is stripped before extra patterns",
      "`ship`",
      { work: ["ship"] },
      "other",
      null,
    ],
  ] as const)("extra patterns: %s", (_name, prompt, extra, intent, matched) => {
    expect(detectIntent(prompt, extra)).toMatchObject({ intent, matched });
  });

  it("ignores what is not a list of strings in extra patterns", () => {
    const extra = { work: [42, null, "ship"] } as unknown as { work: string[] };
    expect(detectIntent("ship it", extra)).toMatchObject({ intent: "work" });
    const broken = { work: "ship" } as unknown as { work: string[] };
    expect(detectIntent("ship it", broken).intent).toBe("other");
  });

  it("never throws and always returns a valid result", () => {
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 20 }),
      fc.constantFrom(
        "```",
        "`",
        '"',
        "「",
        "{",
        "[",
        "/",
        "\n",
        "> ",
        "fix ",
        "修正して",
        "고쳐줘",
        "?",
        "how ",
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const result = detectIntent(pieces.join(""));
        expect(["work", "question", "other"]).toContain(result.intent);
        expect(result.languages.length).toBeGreaterThan(0);
        expect(
          result.matched === null || typeof result.matched === "string",
        ).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("never throws on input that is not a string", () => {
    const inputs: unknown[] = [undefined, null, 42, {}];
    for (const input of inputs) {
      expect(detectIntent(input as string).intent).toBe("other");
    }
  });

  it("looks only at the start of a huge prompt", () => {
    const prompt = `${"how does this work? ".repeat(5_000)} fix it`;
    expect(detectIntent(prompt).intent).toBe("question");
  });
});

describe("gated English patterns", () => {
  const corpusClauses = (["en", "ja", "ko"] as const).flatMap((language) =>
    (
      JSON.parse(
        readFileSync(
          join(
            import.meta.dirname,
            `../../../fixtures/intent/${language}.json`,
          ),
          "utf8",
        ),
      ) as { prompt: string }[]
    ).flatMap(({ prompt }) =>
      prompt
        .toLowerCase()
        .split(/[.!?;,\n]+|\band\b|\bthen\b/)
        .map((c) => c.trim()),
    ),
  );

  it.each(Object.entries(GATED_PATTERNS))(
    "%s answers exactly like its plain regular expression",
    (_name, gatedPattern) => {
      const vocabulary = [
        ...new Set(
          gatedPattern.regex.source.match(/[a-z]+(?:'[a-z]+)?/g) ?? [],
        ),
        "d",
        "'d",
        "it's",
        "fix",
        "the",
        "bug",
      ];
      for (const clause of corpusClauses)
        expect(gatedPattern.exec(clause)?.[0]).toBe(
          gatedPattern.regex.exec(clause)?.[0],
        );
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...vocabulary), {
            minLength: 1,
            maxLength: 5,
          }),
          fc.constantFrom(" ", ", ", "'", "  "),
          (words, separator) => {
            const text = words.join(separator);
            expect(gatedPattern.exec(text)?.[0]).toBe(
              gatedPattern.regex.exec(text)?.[0],
            );
            expect(gatedPattern.test(text)).toBe(gatedPattern.regex.test(text));
          },
        ),
        { numRuns: 3000 },
      );
    },
  );
});
