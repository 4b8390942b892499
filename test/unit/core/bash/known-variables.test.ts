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

describe("inherited variables: the temp folder the shell is given", () => {
  const sandboxed = { TMPDIR: ["/tmp/claude-0"] };
  const unsetToo = { TMPDIR: ["/tmp/claude-0", ""] };
  const inherit = (
    command: string,
    inherited: Record<string, readonly string[]>,
  ) => {
    const analysis = analyzeBash(command, undefined, {
      knownVariables: true,
      inherited,
    });
    expect(analysis.error).toBeNull();
    return writesOf(analysis);
  };

  it.each([
    ['rm -rf "$TMPDIR/calc-build"', [["delete", "/tmp/claude-0/calc-build"]]],
    ["rm -rf ${TMPDIR}/calc-build", [["delete", "/tmp/claude-0/calc-build"]]],
    [
      'rm -rf "${TMPDIR:-/tmp}/calc-build"',
      [["delete", "/tmp/claude-0/calc-build"]],
    ],
    [
      'cd "$TMPDIR" && echo x > out.txt',
      // cd is followed by the app layer, which resolves `out.txt` in the folder the line leads to.
      [["write", "out.txt"]],
    ],
  ] as const)("%s", (command, expected) => {
    expect(inherit(command, sandboxed)).toEqual(expected);
  });

  it("reads `${TMPDIR:-/tmp}` as /tmp and `$TMPDIR` as empty where TMPDIR may be unset", () => {
    expect(inherit('rm -rf "${TMPDIR:-/tmp}/x"', unsetToo)).toEqual([
      ["delete", "/tmp/claude-0/x"],
      ["delete", "/tmp/x"],
    ]);
    expect(inherit('rm -rf "$TMPDIR/x"', unsetToo)).toEqual([
      ["delete", "/tmp/claude-0/x"],
      ["delete", "/x"],
    ]);
  });

  it.each([
    // The line binds TMPDIR itself: its own value holds, or none is known.
    ['TMPDIR=/tmp/own; rm -rf "$TMPDIR/x"', [["delete", "/tmp/own/x"]]],
    ['export TMPDIR=.; rm -rf "$TMPDIR/x"', [["delete", "$TMPDIR/x"]]],
    ['TMPDIR=. rm -rf "$TMPDIR/x"', [["delete", "$TMPDIR/x"]]],
    ['read TMPDIR; rm -rf "$TMPDIR/x"', [["delete", "$TMPDIR/x"]]],
    ['for TMPDIR in a; do :; done; rm -rf "$TMPDIR"', [["delete", "$TMPDIR"]]],
    // A default that is not a plain word stays unknown.
    ['rm -rf "${TMPDIR:-$HOME}/x"', [["delete", "${TMPDIR:-$HOME}/x"]]],
    ['rm -rf "${TMPDIR:+/tmp}/x"', [["delete", "${TMPDIR:+/tmp}/x"]]],
  ] as const)("%s", (command, expected) => {
    expect(inherit(command, sandboxed)).toEqual(expected);
  });

  it("reads a `$(mktemp -d)` standing as a path of its own as a fresh temp path", () => {
    expect(inherit('cp x "$(mktemp -d)/"', {})).toEqual([
      ["write", `${F}/`],
      ["write", `${F}/x`],
      ["write", "/"],
      ["write", "/x"],
    ]);
    // After `..` the fresh path means nothing; should mktemp fail, the path is `/../state.md`.
    expect(inherit('echo x > "$(mktemp -d)/../state.md"', {})).toEqual([
      ["write", "$(mktemp -d)/../state.md"],
      ["write", "/../state.md"],
    ]);
    expect(inherit('TMPDIR=.; echo x > "$(mktemp -d)/y"', {})).toEqual([
      ["write", "$(mktemp -d)/y"],
    ]);
  });
});
