import { describe, expect, it } from "vitest";
import {
  cdFolders,
  findNameFilter,
  gitApplyPatches,
  linkTargets,
  mentionsIn,
  patchTargets,
  staticFolder,
} from "../../../../src/core/bash/bash-targets.ts";
import type { SimpleCommand } from "../../../../src/core/bash/types.ts";

const cmd = (...argv: string[]): SimpleCommand => ({
  argv,
  env: {},
  redirects: [],
  dynamic: false,
  text: argv.join(" "),
  depth: 0,
});

describe("cdFolders: where each command of a line may run", () => {
  it.each([
    ["no cd", [cmd("ls")], ["/repo"]],
    [
      "cd into a folder",
      [cmd("cd", "plan"), cmd("ls")],
      ["/repo", "/repo/plan"],
    ],
    [
      "cd one after another",
      [cmd("cd", "plan"), cmd("cd", "archive")],
      ["/repo", "/repo/plan", "/repo/plan/archive"],
    ],
    ["pushd", [cmd("pushd", ".claude")], ["/repo", "/repo/.claude"]],
    ["cd alone goes home", [cmd("cd")], ["/repo", "/home/dev"]],
    [
      "cd ~+ is the folder it is in",
      [cmd("cd", "~+/plan")],
      ["/repo", "/repo/plan"],
    ],
    [
      "a cd whose target is known only at run time is not followed",
      [cmd("cd", "$D")],
      ["/repo"],
    ],
  ])("%s", (_name, commands, folders) => {
    expect(cdFolders("/repo", commands, "/home/dev", "/repo")).toEqual(folders);
  });
});

describe("staticFolder: the folder a dynamic path certainly lies in", () => {
  it.each([
    ["dist/*.js", "dist"],
    ["plan/archive/$F", "plan/archive"],
    ["$F", "."],
    ["/*", "/"],
    ["*.md", "."],
  ])("%s → %s", (raw, folder) => {
    expect(staticFolder(raw)).toBe(folder);
  });
});

describe("linkTargets: what ln makes a link to", () => {
  it.each([
    [cmd("ln", "-s", "state.md", "s"), ["state.md"]],
    [cmd("ln", "a", "b", "dir"), ["a", "b"]],
    [
      cmd("ln", "-t", "dir", "state.md", "plan/x.md"),
      ["state.md", "plan/x.md"],
    ],
    [cmd("/bin/ln", "-sf", "x", "y"), ["x"]],
    [cmd("cp", "a", "b"), []],
  ])("%j", (command, targets) => {
    expect(linkTargets(command)).toEqual(targets);
  });
});

describe("findNameFilter: which files find -name can reach", () => {
  const commands = [
    cmd("find", ".", "-name", "records", "-exec", "rm", "-rf", "{}", "+"),
  ];
  it("matches the name, not the path", () => {
    const reaches = findNameFilter(commands, commands[0]!.text);
    expect(reaches("/repo/.claude/playbook/records")).toBe(true);
    expect(reaches("/repo/state.md")).toBe(false);
  });
  it("-iname ignores case; no -name reaches everything", () => {
    const iname = [cmd("find", ".", "-iname", "STATE.MD", "-delete")];
    expect(findNameFilter(iname, iname[0]!.text)("/repo/state.md")).toBe(true);
    const all = [cmd("find", "plan", "-delete")];
    expect(findNameFilter(all, all[0]!.text)("/repo/plan/x.md")).toBe(true);
  });
});

describe("git apply: the patches it reads and the files they change", () => {
  it.each([
    [["git", "apply", "fix.patch"], ["fix.patch"]],
    [
      ["git", "-C", ".", "apply", "--index", "a.diff", "b.diff"],
      ["a.diff", "b.diff"],
    ],
    [["git", "apply", "--check", "fix.patch"], []],
    [["git", "apply", "--stat", "fix.patch"], []],
    [["git", "am", "fix.patch"], []],
  ])("%j", (argv, patches) => {
    expect(gitApplyPatches(argv)).toEqual(patches);
  });

  it("reads both sides of each file, and not /dev/null", () => {
    const patch = [
      "--- a/state.md",
      "+++ b/state.md",
      "@@ -1 +1 @@",
      "--- /dev/null",
      "+++ b/plan/new.md",
    ].join("\n");
    expect(patchTargets(patch)).toEqual([
      "state.md",
      "state.md",
      "plan/new.md",
    ]);
  });
});

describe("mentionsIn: the guarded files interpreter code names", () => {
  const guarded = [
    "/repo/state.md",
    "/repo/plan/playbook-x.md",
    "/repo/.claude/playbook",
  ];
  it.each([
    ["open('state.md', 'w')", ["state.md", "/repo/state.md"]],
    [
      "Path('plan', 'playbook-x.md').write_text('')",
      // The runtime folder's name, `playbook`, is in the code too: a mention errs on the side of a check.
      ["playbook-x.md", "/repo/plan/playbook-x.md", "/repo/.claude/playbook"],
    ],
    ["os.chdir('.claude')", ["/repo/.claude/playbook"]],
    ["print(1 + 1)", []],
  ])("%s", (code, mentions) => {
    expect(mentionsIn(code, guarded, "/repo").sort()).toEqual(
      [...mentions].sort(),
    );
  });
});
