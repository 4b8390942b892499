import { describe, expect, it } from "vitest";
import { makeRun } from "../../../../src/core/bash/make-run.ts";
import { makefileRecipes } from "../../../../src/core/bash/makefile-recipes.ts";

describe("makeRun", () => {
  it.each([
    ["make", { dir: null, file: null, targets: [] }],
    ["make test lint", { dir: null, file: null, targets: ["test", "lint"] }],
    ["make -C web build", { dir: "web", file: null, targets: ["build"] }],
    ["make -Cweb build", { dir: "web", file: null, targets: ["build"] }],
    [
      "make --directory=web -f Build.mk all",
      { dir: "web", file: "Build.mk", targets: ["all"] },
    ],
    ["make -j 4 test", { dir: null, file: null, targets: ["test"] }],
    ["make -j test", { dir: null, file: null, targets: ["test"] }],
    ["make V=1 test", { dir: null, file: null, targets: ["test"] }],
    ["gmake -k check", { dir: null, file: null, targets: ["check"] }],
  ])("%s", (line, expected) => {
    expect(makeRun(line.split(" "))).toEqual(expected);
  });

  it("is null for other commands", () => {
    expect(makeRun(["cmake", "--build", "."])).toBeNull();
    expect(makeRun(["npm", "run", "make"])).toBeNull();
  });
});

const MAKEFILE = [
  "PLAYBOOK := plan/playbook-x.md",
  "FLAGS ?= -q",
  "",
  ".PHONY: all test",
  "all: build test",
  "",
  "build: gen",
  "\t@tsc -p . \\",
  "\t  --noEmit",
  "",
  "gen:",
  "\t-echo $$HOME > out.txt",
  "",
  "test: ; node --test",
  "",
  "%.o: %.c",
  "\tcc -c $<",
  "",
  "loop: loop",
  "\techo loop",
].join("\n");

describe("makefileRecipes", () => {
  it("runs the default goal's prerequisites first, with make's prefixes and $$ undone", () => {
    expect(makefileRecipes(MAKEFILE, [])).toEqual([
      { target: "gen", line: "echo $HOME > out.txt" },
      {
        target: "build",
        line: expect.stringMatching(/^tsc -p \.\s+--noEmit$/) as string,
      },
      { target: "test", line: "node --test" },
    ]);
  });

  it("follows the named targets only, once each, and stops at a cycle", () => {
    expect(makefileRecipes(MAKEFILE, ["test", "loop", "test"])).toEqual([
      { target: "test", line: "node --test" },
      { target: "loop", line: "echo loop" },
    ]);
  });

  it("expands the Makefile's own variables in a recipe, as make does before the shell sees it", () => {
    const text = [
      "DIR := plan",
      "BOOK = $(DIR)/playbook-x.md",
      "FLAGS ?= -i",
      "FLAGS += -e s/a/b/",
      "edit:",
      "\tsed $(FLAGS) ${BOOK} $(UNKNOWN)",
    ].join("\n");
    expect(makefileRecipes(text, ["edit"])).toEqual([
      {
        target: "edit",
        line: "sed -i -e s/a/b/ plan/playbook-x.md $(UNKNOWN)",
      },
    ]);
  });

  it("finds nothing for an unknown target or a pattern rule", () => {
    expect(makefileRecipes(MAKEFILE, ["missing", "x.o"])).toEqual([]);
  });
});
