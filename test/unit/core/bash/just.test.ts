import { describe, expect, it } from "vitest";
import { justRun } from "../../../../src/core/bash/just-run.ts";
import { justfileRecipes } from "../../../../src/core/bash/justfile-recipes.ts";

describe("justRun", () => {
  it.each([
    ["just", { dir: null, file: null, words: [] }],
    ["just build test", { dir: null, file: null, words: ["build", "test"] }],
    [
      "just -f ci/justfile lint",
      { dir: null, file: "ci/justfile", words: ["lint"] },
    ],
    [
      "just --set mode prod deploy",
      { dir: null, file: null, words: ["deploy"] },
    ],
    ["just mode=prod deploy", { dir: null, file: null, words: ["deploy"] }],
  ])("%s", (line, expected) => {
    expect(justRun(line.split(" "))).toEqual(expected);
  });

  it("is null for listing and for other commands", () => {
    expect(justRun(["just", "--list"])).toBeNull();
    expect(justRun(["just", "--show", "build"])).toBeNull();
    expect(justRun(["make", "build"])).toBeNull();
  });
});

const JUSTFILE = [
  'set shell := ["bash", "-c"]',
  'out := "dist"',
  "alias b := build",
  "",
  "# the first recipe is the default",
  "all: build test",
  "",
  "build: clean",
  "    @mkdir -p {{out}}",
  "    -tsc --outDir {{ out }}",
  "",
  "clean:",
  "    rm -rf {{out}}",
  "",
  "test:",
  "  node --test",
  "",
  "script:",
  "    #!/usr/bin/env python3",
  "    print('hi')",
].join("\n");

describe("justfileRecipes", () => {
  it("runs the first recipe's dependencies first, with prefixes dropped and variables filled in", () => {
    expect(justfileRecipes(JUSTFILE, [])).toEqual([
      { recipe: "clean", text: "rm -rf dist", interpreter: null },
      { recipe: "build", text: "mkdir -p dist", interpreter: null },
      { recipe: "build", text: "tsc --outDir dist", interpreter: null },
      { recipe: "test", text: "node --test", interpreter: null },
    ]);
  });

  it("follows aliases, skips arguments that are no recipe, and reads a #! recipe as one program", () => {
    expect(
      justfileRecipes(JUSTFILE, ["b", "script", "some-arg"]).map((r) => [
        r.recipe,
        r.interpreter,
      ]),
    ).toEqual([
      ["clean", null],
      ["build", null],
      ["build", null],
      ["script", "python3"],
    ]);
  });
});
