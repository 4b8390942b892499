import { describe, expect, it } from "vitest";
import { analyzeBash } from "../../../../src/core/bash/analyze-bash.ts";
import { writesOf } from "../../../helpers/bash-writes.ts";

describe("find -exec: {} stands for the files under each root", () => {
  it.each([
    [
      "find plan -name 'playbook-*.md' -exec sed -i s/a/b/ {} +",
      [["write", "plan/**/playbook-*.md"]],
    ],
    [
      "find . -type d -name __pycache__ -exec rm -rf {} +",
      [
        ["delete", "."],
        ["delete", "./**/__pycache__"],
      ],
    ],
    [
      "find plan -iname 'PB-*.MD' -exec rm {} +",
      [
        ["delete", "plan"],
        ["delete", "plan/**/[pP][bB]-*.[mM][dD]"],
      ],
    ],
    [
      "find plan -name 'pl*' -exec rm -rf {} +",
      [
        ["delete", "plan"],
        // the root matches the name too, and the inner rm is a command of its own
        ["delete", "plan"],
        ["delete", "plan/**/pl*"],
      ],
    ],
    [
      "find . -name '*.pyc' -o -name '*.md' -exec rm {} \\;",
      [
        ["delete", "."],
        ["delete", "./**"],
      ],
    ],
    [
      "find . ! -name '*.pyc' -exec rm {} \\;",
      [
        ["delete", "."],
        ["delete", "./**"],
      ],
    ],
    [
      "find plan docs/ -exec sed -i s/a/b/ {} \\;",
      [
        ["write", "plan/**"],
        ["write", "docs/**"],
      ],
    ],
    ["find -type f -execdir sed -i s/a/b/ {} +", [["write", "./**"]]],
    ["find / -okdir sed -i s/a/b/ {} \\;", [["write", "/**"]]],
    [
      "find plan -ok rm {} \\;",
      [
        ["delete", "plan"],
        ["delete", "plan/**"],
      ],
    ],
    [
      "find plan -exec mv {} {}.bak \\;",
      [
        ["move", "plan/**"],
        ["write", "plan/**.bak"],
      ],
    ],
    ["sudo find plan -exec sudo tee {} \\; < x", [["write", "plan/**"]]],
    ["find plan -exec grep -l x {} +", []],
  ] as const)("%s", (command, expected) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(writesOf(analysis)).toEqual(expected);
  });

  it("gives the inner command its own text, apart from find's roots", () => {
    const analysis = analyzeBash(
      "find . -name '*.tmp' -exec rm -rf {} + > log.txt",
    );
    expect(
      analysis.commands.map((c) => [c.argv[0], c.text, c.depth, c.dynamic]),
    ).toEqual([
      ["find", "find . -name '*.tmp' -exec rm -rf {} + > log.txt", 0, false],
      ["rm", "rm -rf {}", 1, true],
    ]);
    expect(analysis.writes.map((w) => [w.op, w.path, w.command])).toEqual([
      ["write", "log.txt", "find . -name '*.tmp' -exec rm -rf {} + > log.txt"],
      ["delete", ".", "find . -name '*.tmp' -exec rm -rf {} + > log.txt"],
      ["delete", "./**/*.tmp", "rm -rf {}"],
      // find's `*` matches dotfiles too: `.x.tmp` and `.tmp`
      ["delete", "./**/.*.tmp", "rm -rf {}"],
      ["delete", "./**/.tmp", "rm -rf {}"],
    ]);
  });

  it("ends -exec at the first ; as find does, through wrappers and a second find", () => {
    const analysis = analyzeBash(
      "sudo find a -exec find {} -exec touch '{}' \\; \\;",
    );
    expect(analysis.commands.map((c) => c.text)).toEqual([
      "sudo find a -exec find {} -exec touch '{}' \\; \\;",
      "sudo find a -exec find {} -exec touch '{}' \\; \\;",
      "find {} -exec touch '{}'",
      "touch '{}'",
    ]);
    expect(writesOf(analysis)).toEqual([["write", "a/**/**"]]);
  });
});

describe("xargs: the names it reads are $XARGS", () => {
  it.each([
    ["ls plan/*.md | xargs sed -i s/a/b/", [["write", "$XARGS"]]],
    ["xargs rm", [["delete", "$XARGS"]]],
    ["find plan -print0 | xargs -0 sudo rm -f", [["delete", "plan/$XARGS"]]],
    [
      "xargs -0 -n1 mv -t archive",
      [
        ["move", "$XARGS"],
        ["write", "archive"],
        ["write", "archive/$XARGS"],
      ],
    ],
    ["xargs -I X sed -i s/a/b/ X", [["write", "$XARGS"]]],
    ["xargs -i sed -i s/a/b/ {}", [["write", "$XARGS"]]],
    ["xargs --replace=F rm F.bak", [["delete", "$XARGS.bak"]]],
    ["xargs -I{} cat {}", []],
    ["xargs grep -l x", []],
  ] as const)("%s", (command, expected) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(writesOf(analysis)).toEqual(expected);
  });

  it("keeps the inner command's words as written", () => {
    expect(
      analyzeBash("xargs sed -i s/a/b/").commands.map((c) => c.argv),
    ).toEqual([
      ["xargs", "sed", "-i", "s/a/b/"],
      ["sed", "-i", "s/a/b/"],
    ]);
  });
});

describe("xargs -0 fed by find -print0: the names lie in find's roots", () => {
  it.each([
    ["find /tmp/foo -print0 | xargs -0 rm -f", [["delete", "/tmp/foo/$XARGS"]]],
    [
      "find /tmp/foo -name '*.tmp' -print0 | xargs -0 -I{} rm {}",
      [["delete", "/tmp/foo/$XARGS"]],
    ],
    ["find . -print0 | xargs --null rm", [["delete", "./$XARGS"]]],
    [
      "find -L a b/ -type f -print0 | xargs -0 -n1 rm",
      [
        ["delete", "a/$XARGS"],
        ["delete", "b/$XARGS"],
      ],
    ],
    [
      "find /tmp/foo -print0 | sudo xargs -0 rm",
      [["delete", "/tmp/foo/$XARGS"]],
    ],
    // xargs splits other input at blanks: `/tmp/foo/x state.md .tmp` would name ./state.md.
    ['find /tmp/foo -name "*.tmp" | xargs rm -f', [["delete", "$XARGS"]]],
    ["find /tmp/foo -print0 | xargs rm", [["delete", "$XARGS"]]],
    ["find /tmp/foo -print | xargs -0 rm", [["delete", "$XARGS"]]],
    [
      "find /tmp/foo -print0 | xargs -0 -I{} rm {}",
      [["delete", "/tmp/foo/$XARGS"]],
    ],
    ["find /tmp/foo -print0 | xargs -0 -d x rm", [["delete", "$XARGS"]]],
    ["find /tmp/foo -print0 | xargs -0 -a list rm", [["delete", "$XARGS"]]],
    // Output other than the paths found: a name, or what -exec prints.
    [
      "find /tmp/foo -printf '%f\\0' -print0 | xargs -0 rm",
      [["delete", "$XARGS"]],
    ],
    ["find /tmp/foo -print0 -ls | xargs -0 rm", [["delete", "$XARGS"]]],
    [
      "find /tmp/foo -exec printf 'state.md\\0' \\; -print0 | xargs -0 rm",
      [["delete", "$XARGS"]],
    ],
    ["find -files0-from list -print0 | xargs -0 rm", [["delete", "$XARGS"]]],
    ["find $X -print0 | xargs -0 rm", [["delete", "$XARGS"]]],
    ["find /tmp/foo $X -print0 | xargs -0 rm", [["delete", "$XARGS"]]],
    ["git ls-files -z | xargs -0 rm -f", [["delete", "$XARGS"]]],
    ["git ls-files | xargs rm -f", [["delete", "$XARGS"]]],
  ] as const)("%s", (command, expected) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(writesOf(analysis)).toEqual(expected);
  });
});

describe("multi-call binaries", () => {
  it.each([
    ["busybox sed -i s/a/b/ plan/a.md", [["write", "plan/a.md"]]],
    ["toybox rm -rf plan", [["delete", "plan"]]],
    ["/bin/busybox tee plan/x.md", [["write", "plan/x.md"]]],
    ["busybox --list", []],
    ["busybox", []],
  ] as const)("%s", (command, expected) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(writesOf(analysis)).toEqual(expected);
  });
});
