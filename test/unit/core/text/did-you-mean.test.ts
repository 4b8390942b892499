import { describe, expect, it } from "vitest";
import { didYouMean } from "../../../../src/core/text/did-you-mean.ts";

const SECTIONS = ["meta", "goal", "context", "phases", "final_tasks"];

describe("didYouMean", () => {
  it.each([
    ["contxt", "context"],
    ["phasess", "phases"],
    ["final-tasks", "final_tasks"],
    ["Goal", null],
    ["META", null],
    ["finaltasks", "final_tasks"],
    ["notes", null],
    ["x", null],
    ["context", null],
  ])("%s -> %s", (word, expected) => {
    expect(didYouMean(word, SECTIONS)).toBe(expected);
  });

  it("prefers the closest of several", () => {
    expect(
      didYouMean("maxIteration", ["maxIterations", "maxConsecutiveBlocks"]),
    ).toBe("maxIterations");
  });
});
