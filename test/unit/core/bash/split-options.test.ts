import { describe, expect, it } from "vitest";
import {
  hasOption,
  optionValues,
  splitOptions,
  type OptionSpec,
} from "../../../../src/core/bash/split-options.ts";

describe("splitOptions", () => {
  it.each<[string, string[], OptionSpec, string[], [string, string | null][]]>([
    [
      "flags and operands, GNU order",
      ["-rf", "a", "-v", "b"],
      {},
      ["a", "b"],
      [
        ["r", null],
        ["f", null],
        ["v", null],
      ],
    ],
    [
      "value in the next word",
      ["-o", "out", "in"],
      { short: "o" },
      ["in"],
      [["o", "out"]],
    ],
    ["value attached", ["-oout", "in"], { short: "o" }, ["in"], [["o", "out"]]],
    [
      "value ending a cluster",
      ["-sSLo", "out", "url"],
      { short: "o" },
      ["url"],
      [
        ["s", null],
        ["S", null],
        ["L", null],
        ["o", "out"],
      ],
    ],
    [
      "attached-only value",
      ["-i.bak", "f"],
      { attached: "i" },
      ["f"],
      [["i", ".bak"]],
    ],
    [
      "attached-only without value",
      ["-i", "f"],
      { attached: "i" },
      ["f"],
      [["i", null]],
    ],
    ["long with =", ["--output=out", "in"], {}, ["in"], [["--output", "out"]]],
    [
      "long with next word",
      ["--output", "out", "in"],
      { long: ["output"] },
      ["in"],
      [["--output", "out"]],
    ],
    [
      "-- ends options",
      ["-f", "--", "-x", "y"],
      {},
      ["-x", "y"],
      [["f", null]],
    ],
    ["- is an operand", ["-", "-f"], {}, ["-"], [["f", null]]],
    [
      "stop at the first operand",
      ["-n", "5", "rm", "-rf", "x"],
      { short: "n", stopAtOperand: true },
      ["rm", "-rf", "x"],
      [["n", "5"]],
    ],
    ["missing value", ["-o"], { short: "o" }, [], [["o", null]]],
  ])("%s", (_, args, spec, operands, options) => {
    const split = splitOptions(args, spec);
    expect(split.operands).toEqual(operands);
    expect(split.options.map((o) => [o.name, o.value])).toEqual(options);
  });

  it("answers which options were given and their values", () => {
    const split = splitOptions(["-t", "a", "--target-directory=b", "-v"], {
      short: "t",
    });
    expect(hasOption(split, "v")).toBe(true);
    expect(hasOption(split, "x", "--x")).toBe(false);
    expect(optionValues(split, "t", "--target-directory")).toEqual(["a", "b"]);
  });
});
