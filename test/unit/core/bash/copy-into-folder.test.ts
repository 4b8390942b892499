import { describe, expect, it } from "vitest";
import { analyzeBash } from "../../../../src/core/bash/analyze-bash.ts";
import { writesOf } from "../../../helpers/bash-writes.ts";

describe("copying, moving and linking into a folder", () => {
  it.each([
    ["cp a.md b.md", [["write", "b.md"]]],
    [
      "cp a.md plan",
      [
        ["write", "plan"],
        ["write", "plan/a.md"],
      ],
    ],
    [
      "cp a.md .",
      [
        ["write", "."],
        ["write", "./a.md"],
      ],
    ],
    [
      "cp /tmp/state.md ..",
      [
        ["write", ".."],
        ["write", "../state.md"],
      ],
    ],
    [
      "cp a.md /",
      [
        ["write", "/"],
        ["write", "/a.md"],
      ],
    ],
    [
      "cp -r src dest.d",
      [
        ["write", "dest.d"],
        ["write", "dest.d/src"],
      ],
    ],
    [
      "cp -r . ../x",
      [
        ["write", "../x"],
        ["write", "../x/*"],
      ],
    ],
    [
      "cp a.md b.md c.md",
      [
        ["write", "c.md"],
        ["write", "c.md/a.md"],
        ["write", "c.md/b.md"],
      ],
    ],
    [
      "mv plan/a.md archive/",
      [
        ["move", "plan/a.md"],
        ["write", "archive/"],
        ["write", "archive/a.md"],
      ],
    ],
    [
      "mv --target-directory=archive x/a.md",
      [
        ["move", "x/a.md"],
        ["write", "archive"],
        ["write", "archive/a.md"],
      ],
    ],
    [
      "install -t bin a.sh",
      [
        ["write", "bin"],
        ["write", "bin/a.sh"],
      ],
    ],
    [
      "ln -s ../x a dir",
      [
        ["write", "dir"],
        ["write", "dir/x"],
        ["write", "dir/a"],
      ],
    ],
    ["ln -s target link.md", [["write", "link.md"]]],
    [
      "rsync -a src dest",
      [
        ["write", "dest"],
        ["write", "dest/src"],
      ],
    ],
    ["rsync a.md b.md", [["write", "b.md"]]],
    [
      "rsync -a host:/x/y.md plan/",
      [
        ["write", "plan/"],
        ["write", "plan/y.md"],
      ],
    ],
    [
      "rsync -a --delete src/ plan",
      [
        ["write", "plan"],
        ["write", "plan/*"],
        ["delete", "plan/*"],
      ],
    ],
    ["rsync -a src/ host:/x", []],
  ] as const)("%s", (command, expected) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(writesOf(analysis)).toEqual(expected);
  });
});
