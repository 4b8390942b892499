import { describe, expect, it } from "vitest";
import {
  pathsOf,
  selectCommit,
  trackedChanges,
} from "../../../../src/core/archive/commit-selection.ts";
import type { StatusEntry } from "../../../../src/core/archive/git-status.ts";
import {
  isRepositoryPath,
  parseWrittenList,
  toWrittenLine,
  writtenListPath,
} from "../../../../src/core/archive/written-files.ts";

const PLAYBOOK = "plan/playbook-login.md";
const entry = (
  path: string,
  index: string,
  worktree = index,
  from: string | null = null,
): StatusEntry => ({
  path,
  from,
  index,
  worktree,
});

describe("selectCommit", () => {
  const status = [
    entry("src/changed.ts", " ", "M"),
    entry("src/gone.ts", " ", "D"),
    entry("src/new-name.ts", "R", " ", "src/old-name.ts"),
    entry("src/staged.ts", "A", " "),
    entry("src/written.ts", "?"),
    entry(PLAYBOOK, "?"),
    entry(
      ".claude/playbook/records/plan__playbook-login.md/review.playbook.json",
      "?",
    ),
    entry(
      ".claude/playbook/records/plan__playbook-other.md/review.playbook.json",
      "?",
    ),
    entry("scratch.txt", "?"),
    entry("config.env", "?"),
    entry("dist/ignored.js", "!"),
  ];

  it("commits tracked changes, staged files, files the file tools wrote and the playbook's bookkeeping; leaves the rest alone, named", () => {
    const selection = selectCommit(
      status,
      PLAYBOOK,
      new Set(["src/written.ts", "src/deleted-since.ts"]),
    );
    expect(selection.commit.map((e) => e.path)).toEqual([
      "src/changed.ts",
      "src/gone.ts",
      "src/new-name.ts",
      "src/staged.ts",
      "src/written.ts",
      PLAYBOOK,
      ".claude/playbook/records/plan__playbook-login.md/review.playbook.json",
    ]);
    expect(selection.leftAlone).toEqual([
      ".claude/playbook/records/plan__playbook-other.md/review.playbook.json",
      "config.env",
      "scratch.txt",
    ]);
    expect(pathsOf(selection.commit)).toContain("src/old-name.ts");
  });

  it("with no list of written files, an untracked file the agent wrote is left alone like any other", () => {
    expect(selectCommit(status, PLAYBOOK, new Set()).leftAlone).toContain(
      "src/written.ts",
    );
  });

  it("trackedChanges leaves out untracked and ignored files", () => {
    expect(trackedChanges(status).map((e) => e.path)).toEqual([
      "src/changed.ts",
      "src/gone.ts",
      "src/new-name.ts",
      "src/staged.ts",
    ]);
  });
});

describe("the list of written files", () => {
  const file = writtenListPath(PLAYBOOK);

  it("lives beside the records, one file per playbook", () => {
    expect(file).toBe(".claude/playbook/written/plan__playbook-login.md.jsonl");
  });

  it("reads back what was appended, each path once, in order", () => {
    const text = ["src/a b.ts", "src/ü.ts", "src/a b.ts", 'src/"q".ts']
      .map(toWrittenLine)
      .join("");
    expect(parseWrittenList(text, file)).toEqual({
      ok: true,
      paths: ["src/a b.ts", "src/ü.ts", 'src/"q".ts'],
    });
    expect(parseWrittenList("", file)).toEqual({ ok: true, paths: [] });
  });

  it.each([
    [
      '"src/a.ts"\nnot json\n',
      ":2: Unexpected `not json`, expected a repository path as a JSON string",
    ],
    [
      '"src/a.ts"\n"src/b',
      ':2: Unexpected `"src/b`, expected a repository path as a JSON string',
    ],
    [
      '"../outside.ts"\n',
      ':1: Unexpected `"../outside.ts"`, expected a path inside the repository',
    ],
    ['"/etc/passwd"\n', ":1: Unexpected"],
    ["42\n", ":1: Unexpected `42`"],
    ["\n", ":1: Unexpected an empty line"],
  ])("a broken list %j is refused with the file and line", (text, problem) => {
    const parsed = parseWrittenList(text, file);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toContain(`${file}${problem}`);
  });

  it.each([
    ["src/a.ts", true],
    ["a", true],
    ["", false],
    ["/abs", false],
    ["a/../b", false],
    ["./a", false],
    ["a//b", false],
    [".git/config", false],
    ["a\0b", false],
  ])("%j is a repository path: %s", (path, expected) => {
    expect(isRepositoryPath(path)).toBe(expected);
  });
});
