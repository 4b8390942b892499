import { describe, expect, it } from "vitest";
import { analyzeBash } from "../../../../src/core/bash/analyze-bash.ts";
import { FRESH_TEMP } from "../../../../src/core/bash/fresh-temp-call.ts";
import type { BashAnalysis } from "../../../../src/core/bash/types.ts";
import { writesOf } from "../../../helpers/bash-writes.ts";

const F = FRESH_TEMP;

const analyze = (command: string): BashAnalysis => {
  const analysis = analyzeBash(command, undefined, { knownVariables: true });
  expect(analysis.error).toBeNull();
  return analysis;
};

describe("known variables: the write targets of legitimate work", () => {
  it.each([
    // The "" of a failed mktemp: `rm -rf ""` removes nothing.
    ['d=$(mktemp -d); rm -rf "$d"', [["delete", F]]],
    ['d=$(mktemp -d) && echo x > "$d/out.txt"', [["write", `${F}/out.txt`]]],
    [
      'd=$(mktemp -d); echo x > "$d/out.txt"',
      [
        ["write", `${F}/out.txt`],
        ["write", "/out.txt"],
      ],
    ],
    ['d=$(mktemp -d) && echo x > "${d}/out"', [["write", `${F}/out`]]],
    ["d=$(mktemp -d) && dd if=x of=$d/y", [["write", `${F}/y`]]],
    ["d=$(mktemp -d) && echo $(echo x > $d/o)", [["write", `${F}/o`]]],
    ["tmp=/tmp/scratch; rm -rf $tmp", [["delete", "/tmp/scratch"]]],
    [
      'for f in /tmp/a /tmp/b; do rm -f "$f"; done',
      [
        ["delete", "/tmp/a"],
        ["delete", "/tmp/b"],
      ],
    ],
    [
      'for f in a b; do cp "$f" "$f.bak"; done',
      [
        ["write", "a.bak"],
        ["write", "b.bak"],
      ],
    ],
    ['for f in /tmp/*.log; do rm "$f"; done', [["delete", "/tmp/*.log"]]],
    ['d=/tmp/x; bash -c "rm -rf $d/y"', [["delete", "/tmp/x/y"]]],
    ["d=; rm -rf $d build", [["delete", "build"]]],
    [
      'd=$(mktemp -d) && find "$d" -print0 | xargs -0 rm',
      [["delete", `${F}/$XARGS`]],
    ],
  ] as const)("%s", (command, expected) => {
    expect(writesOf(analyze(command))).toEqual(expected);
  });

  it("follows cd into the fresh folder", () => {
    const analysis = analyze('d=$(mktemp -d); cd "$d" && echo x > out');
    expect(analysis.commands.map((c) => c.argv)).toContainEqual(["cd", F]);
    expect(writesOf(analysis)).toEqual([["write", "out"]]);
  });
});

describe("known variables: what still reaches guarded files", () => {
  it.each([
    ['rm -rf "$TARGET"', [["delete", "$TARGET"]]],
    ["f=state.md; echo x > $f", [["write", "state.md"]]],
    ["for f in state.md; do echo x > $f; done", [["write", "state.md"]]],
    [
      'd=$(mktemp -d); echo x > "$d/../state.md"',
      [
        ["write", "$d/../state.md"],
        ["write", "/../state.md"],
      ],
    ],
    // Inside another word, or after `..`, the fresh path means nothing: `$d` stays unknown.
    ['d=$(mktemp -d) && echo x > "x$d"', [["write", "x$d"]]],
    ['d=$(mktemp -d) && rm -rf "$d/.."', [["delete", "$d/.."]]],
    // Should mktemp fail, `$d` is gone and state.md is cp's destination.
    [
      "d=$(mktemp -d); cp x state.md $d",
      [
        ["write", F],
        ["write", `${F}/x`],
        ["write", `${F}/state.md`],
        ["write", "state.md"],
      ],
    ],
    ['false && d=/tmp/x; rm -rf "$d"', [["delete", "$d"]]],
    ['rm -rf "$d"; d=/tmp/x', [["delete", "$d"]]],
    ["d=/tmp/x; d=$OTHER; rm -rf $d", [["delete", "$d"]]],
    ['d="a state.md"; rm $d', [["delete", "$d"]]],
    ["d=/tmp/x rm -rf $d", [["delete", "$d"]]],
    ["d=$(mktemp -p . -d) && echo x > $d/state.md", [["write", "$d/state.md"]]],
    [
      "TMPDIR=. ; d=$(mktemp -d) ; echo x > $d/state.md",
      [["write", "$d/state.md"]],
    ],
    ["for f in a b; do f=state.md; echo x > $f; done", [["write", "$f"]]],
    ["d=/tmp/x; eval true; rm -rf $d", [["delete", "$d"]]],
    ["bash -c 'd=/tmp/x; rm -rf $d'", [["delete", "$d"]]],
  ] as const)("%s", (command, expected) => {
    expect(writesOf(analyze(command))).toEqual(expected);
  });

  it("keeps the words as written past 64 combinations", () => {
    const command =
      "for a in 1 2 3 4 5 6 7 8 9; do for b in 1 2 3 4 5 6 7 8; do rm $a$b; done; done";
    expect(writesOf(analyze(command))).toEqual([["delete", "$a$b"]]);
  });

  it("fills in nothing unless asked: scripts and nested code run where other bindings hold", () => {
    expect(writesOf(analyzeBash("tmp=/tmp/scratch; rm -rf $tmp"))).toEqual([
      ["delete", "$tmp"],
    ]);
  });

  it("refuses a line holding a NUL, which could spell the fresh temp marker", () => {
    expect(analyzeBash(`echo x > '${F}/state.md'`).error).toMatch(/NUL/);
  });
});
