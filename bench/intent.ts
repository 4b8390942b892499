// Scores detectIntent on the labelled corpora in test/fixtures/intent and, run directly
// (`npx tsx bench/intent.ts`), prints precision and recall of the "work" class per language and the median time
// per prompt over all prompts repeated 200 times.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { detectIntent } from "../src/core/intent/detect-intent.ts";

type Language = "en" | "ja" | "ko";

interface CorpusEntry {
  prompt: string;
  work: boolean;
  note?: string;
}

export interface IntentScore {
  language: Language;
  prompts: number;
  precision: number;
  recall: number;
  falsePositives: string[];
  falseNegatives: string[];
}

const LANGUAGES: readonly Language[] = ["en", "ja", "ko"];
const ROUNDS = 200;

function readCorpus(language: Language): CorpusEntry[] {
  const path = join(
    import.meta.dirname,
    "..",
    "test",
    "fixtures",
    "intent",
    `${language}.json`,
  );
  return JSON.parse(readFileSync(path, "utf8")) as CorpusEntry[];
}

/** Precision and recall of the "work" class for each corpus, with the prompts it gets wrong. */
export function scoreIntentCorpora(): IntentScore[] {
  return LANGUAGES.map((language) => {
    const corpus = readCorpus(language);
    const falsePositives: string[] = [];
    const falseNegatives: string[] = [];
    let truePositives = 0;
    for (const { prompt, work } of corpus) {
      const predicted = detectIntent(prompt).intent === "work";
      if (predicted && work) truePositives++;
      else if (predicted) falsePositives.push(prompt);
      else if (work) falseNegatives.push(prompt);
    }
    const predictedWork = truePositives + falsePositives.length;
    const actualWork = truePositives + falseNegatives.length;
    return {
      language,
      prompts: corpus.length,
      precision: predictedWork === 0 ? 1 : truePositives / predictedWork,
      recall: actualWork === 0 ? 1 : truePositives / actualWork,
      falsePositives,
      falseNegatives,
    };
  });
}

function medianMicroseconds(prompts: readonly string[]): number {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const prompt of prompts) {
      const start = process.hrtime.bigint();
      detectIntent(prompt);
      samples.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? 0;
}

/** The median time of one `detectIntent` call over every corpus prompt, in microseconds. */
export function timeIntentCorpora(): {
  median: number;
  prompts: number;
  rounds: number;
} {
  const prompts = LANGUAGES.flatMap((l) => readCorpus(l).map((e) => e.prompt));
  return {
    median: medianMicroseconds(prompts),
    prompts: prompts.length,
    rounds: ROUNDS,
  };
}

function printReport(): void {
  const scores = scoreIntentCorpora();
  const { median, prompts: count } = timeIntentCorpora();
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    "| language | prompts | precision | recall | false positives | false negatives |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...scores.map(
      (s) =>
        `| ${s.language} | ${s.prompts} | ${pct(s.precision)} | ${pct(s.recall)} | ${s.falsePositives.length} | ${s.falseNegatives.length} |`,
    ),
    "",
    `Median time per prompt: ${median.toFixed(1)} µs (${count} prompts × ${ROUNDS}).`,
  ];
  for (const s of scores) {
    for (const p of s.falsePositives)
      lines.push(`- ${s.language} false positive: ${JSON.stringify(p)}`);
    for (const p of s.falseNegatives)
      lines.push(`- ${s.language} false negative: ${JSON.stringify(p)}`);
  }
  console.log(lines.join("\n"));
}

if (process.argv[1] === import.meta.filename) printReport();
