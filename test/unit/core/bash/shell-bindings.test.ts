import { parse } from "unbash";
import { describe, expect, it } from "vitest";
import { FRESH_TEMP } from "../../../../src/core/bash/fresh-temp-call.ts";
import { findLineBindings } from "../../../../src/core/bash/shell-bindings.ts";

const F = FRESH_TEMP;

/** Each use the line fills in, in source order, as its spelling and the values it stands for. */
function known(source: string): [string, string[]][] {
  return [...findLineBindings(parse(source), source)]
    .sort(([a], [b]) => a.pos - b.pos)
    .map(([node, use]) => [source.slice(node.pos, node.end), [...use.values]]);
}

describe("findLineBindings: values the line itself shows", () => {
  it.each([
    ["tmp=/tmp/scratch; rm -rf $tmp", [["$tmp", ["/tmp/scratch"]]]],
    ['d=/tmp/x && rm -rf "${d}"', [["${d}", ["/tmp/x"]]]],
    ["d='/tmp/a'\"b\"; rm $d", [["$d", ["/tmp/ab"]]]],
    ["d=; rm $d/x", [["$d", [""]]]],
    ["f=*.md; rm $f", [["$f", ["*.md"]]]],
    ["d=/tmp/x; echo $(rm -rf $d)", [["$d", ["/tmp/x"]]]],
    [
      "d=/tmp/x; (rm $d) & rm $d",
      [
        ["$d", ["/tmp/x"]],
        ["$d", ["/tmp/x"]],
      ],
    ],
    ["HOME=/tmp/h; rm -rf $HOME", [["$HOME", ["/tmp/h"]]]],
    [
      'for f in /tmp/a /tmp/b; do rm -f "$f"; done',
      [["$f", ["/tmp/a", "/tmp/b"]]],
    ],
    ['for f in /tmp/*.log; do rm "$f"; done', [["$f", ["/tmp/*.log"]]]],
    [
      "for f in a b; do for g in c; do cp $f $g; done; done",
      [
        ["$f", ["a", "b"]],
        ["$g", ["c"]],
      ],
    ],
  ] as const)("%s", (source, expected) => {
    expect(known(source)).toEqual(expected);
  });
});

describe("findLineBindings: $(mktemp) is a fresh path in the temp folder", () => {
  it.each([
    // A failed mktemp leaves the variable empty, except where an `&&` chain stops first.
    ['d=$(mktemp -d); rm -rf "$d"', [["$d", [F, ""]]]],
    ['d=$(mktemp -d) && echo x > "$d/out.txt"', [["$d", [F]]]],
    [
      'd="$(mktemp)" && a "$d" && b "$d" || c "$d"; e "$d"',
      [
        ["$d", [F]],
        ["$d", [F]],
        ["$d", [F, ""]],
        ["$d", [F, ""]],
      ],
    ],
    ['d=$(mktemp) || exit 1; rm "$d"', [["$d", [F, ""]]]],
    ["d=`mktemp -d` && rm -rf $d", [["$d", [F]]]],
    ["d=$(mktemp -t x.XXXXXX) && rm $d", [["$d", [F]]]],
    ["d=$(mktemp -dt x.XXXXXX) && rm $d", [["$d", [F]]]],
    ["d=$(mktemp --tmpdir -d x.XXXXXX) && rm $d", [["$d", [F]]]],
    ["d=$(mktemp -d -q -u) && rm $d", [["$d", [F]]]],
    ["d=$(mktemp --directory --quiet --dry-run) && rm $d", [["$d", [F]]]],
    ["d=$(mktemp -d 2>/dev/null) && rm $d", [["$d", [F]]]],
  ] as const)("%s", (source, expected) => {
    expect(known(source)).toEqual(expected);
  });

  it.each([
    ["a template relative to the working directory", "d=$(mktemp x.XXXX)"],
    ["a folder of its own", "d=$(mktemp -p . -d)"],
    ["a folder after --tmpdir=", "d=$(mktemp --tmpdir=. -d)"],
    ["a template that climbs out", "d=$(mktemp -t ../x.XXXX)"],
    ["a template with a slash", "d=$(mktemp --tmpdir a/x.XXXX)"],
    ["an unknown option", "d=$(mktemp --suffix=/x -d)"],
    ["a word known only when it runs", "d=$(mktemp $X)"],
    ["errors into the value", "d=$(mktemp -d 2>&1)"],
    ["errors into the value by name", "d=$(mktemp -d 2>/dev/stdout)"],
    ["a second command", "d=$(mktemp -d; echo state.md)"],
    ["its own TMPDIR", "d=$(TMPDIR=. mktemp -d)"],
    ["TMPDIR set in the line", "TMPDIR=.; d=$(mktemp -d)"],
    ["PATH set in the line", "PATH=.:/bin; d=$(mktemp -d)"],
    ["more after it", "d=$(mktemp -d)x"],
    ["another program", "d=$(mktemp2 -d)"],
  ])("not with %s: %s", (_name, assignment) => {
    expect(known(`${assignment} && echo x > $d/state.md`)).toEqual([]);
  });
});

describe("findLineBindings: everything else stays unknown", () => {
  it.each([
    ["an inherited variable", 'rm -rf "$TARGET"'],
    ["a binding that may not run", 'false && d=/tmp/x; rm -rf "$d"'],
    ["a use before the binding", 'rm -rf "$d"; d=/tmp/x'],
    ["two bindings", "d=/tmp/x; d=$OTHER; rm -rf $d"],
    ["two bindings, one inside $( )", "d=/tmp/x; echo $(d=/; :); rm -rf $d"],
    ["a value with a blank", 'd="a state.md"; rm $d'],
    ["a prefix assignment", "d=/tmp/x rm -rf $d"],
    ["a prefix assignment to a builtin", "d=/tmp/x; d=/ :; rm -rf $d"],
    ["a backgrounded binding", "d=/tmp/x & rm -rf $d"],
    ["a binding in a pipeline", "d=/tmp/x | cat; rm -rf $d"],
    ["a binding in a subshell", "(d=/tmp/x); rm -rf $d"],
    ["a binding in an if", "if true; then d=/tmp/x; fi; rm -rf $d"],
    ["a binding in a loop", "while :; do d=/tmp/x; done; rm -rf $d"],
    ["a value with a tilde", "d=~/x; rm -rf $d"],
    ["a value naming a variable", "d='$HOME'; rm -rf \"$d\""],
    ["a value from a variable", "d=$OTHER; rm $d"],
    ["a value from a command", "d=a$(b); rm $d"],
    ["an appended value", "d+=/x; rm $d"],
    ["an array", "d=(a b); rm $d"],
    ["a shell-owned variable", "RANDOM=/tmp/x; rm -rf $RANDOM"],
    ["PWD, which cd changes", "PWD=/tmp/x; cd /; rm -rf $PWD"],
    ["a loop variable after the loop", "for f in a; do :; done; rm $f"],
    [
      "a loop variable reassigned in the body",
      "for f in a b; do f=state.md; echo x > $f; done",
    ],
    ["a loop over the arguments", "for f; do rm $f; done"],
    ["a loop over a variable", "for f in $X; do rm $f; done"],
    ["a loop over braces", "for f in {a,b}; do rm $f; done"],
    [
      "a glob's names split again when unquoted",
      "for f in /tmp/*.log; do rm $f; done",
    ],
    ["an operation on the value", "d=/tmp/x; rm ${d%/x}"],
    ["a file descriptor variable", "d=/tmp/x; exec {d}>log; rm -rf $d"],
  ])("%s: %s", (_name, source) => {
    expect(known(source)).toEqual([]);
  });

  it.each([
    "eval true",
    "source x.sh",
    ". x.sh",
    "read n",
    "declare n=1",
    "typeset n=1",
    "local n=1",
    "export n=1",
    "readonly n",
    "unset n",
    "mapfile n",
    "readarray n",
    "let n=1",
    "getopts a n",
    "trap 'd=/' DEBUG",
    "alias mktemp=x",
    "hash -p /bin/x mktemp",
    "enable -n rm",
    "command read n",
    "builtin read n",
    "compgen -V n",
    "printf -v n x",
    "wait -p n",
    "test -v 'a[n=1]'",
    "[ -v n ]",
    "f() { :; }",
    "function f { :; }",
    "(( n = 1 ))",
    "echo $((n=1))",
    "echo $[n=1]",
    "for ((i=0; i<1; i++)); do :; done",
    "[[ 1 -eq n=1 ]]",
    "[[ -v a[n=1] ]]",
    ": ${n:=x}",
    ": ${n=x}",
    ": ${a[n=1]}",
    ": ${n:1}",
    ": ${!r}",
    ": ${r@P}",
    "a[n=1]=x",
    "coproc cat",
    "select x in a; do :; done",
    "$cmd n",
    "IFS=/",
  ])("gives up on the whole line with %s", (construct) => {
    expect(known(`d=/tmp/x; ${construct}; rm -rf $d`)).toEqual([]);
  });

  it.each([
    "echo hi",
    "[[ -f x && $a == b ]]",
    "test -f x",
    "printf '%s' x",
    "wait",
    ": ${n:-x}",
    ": ${#n}",
    ": ${a[0]} ${a[@]}",
    ": ${!p*}",
    "x=1 env",
  ])("keeps the rest of the line with %s", (construct) => {
    expect(known(`d=/tmp/x; ${construct}; rm -rf $d`)).toContainEqual([
      "$d",
      ["/tmp/x"],
    ]);
  });

  it("passes over a line without a $ or with a NUL at once", () => {
    expect(known("rm -rf /tmp/x")).toEqual([]);
    expect(known("d=/tmp/x; rm $d \0")).toEqual([]);
  });
});
