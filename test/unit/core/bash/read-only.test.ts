import { describe, expect, it } from "vitest";
import { analyzeBash } from "../../../../src/core/bash/analyze-bash.ts";
import { looksReadOnly } from "../../../../src/core/bash/looks-read-only.ts";
import { isProvablyReadOnly } from "../../../../src/core/bash/read-only.ts";

const readOnly = (command: string, gitAtRoot = true) =>
  isProvablyReadOnly(
    analyzeBash(command, undefined, { knownVariables: true }),
    {
      gitAtRoot,
    },
  );

describe("isProvablyReadOnly: no snapshot for these", () => {
  it.each([
    "ls",
    "ls -la src",
    "cat package.json",
    "head -20 src/a.ts | grep -n export",
    "grep -rn TODO src",
    "rg -n 'fn main' src",
    "wc -l src/a.ts src/b.ts",
    "pwd",
    "echo done",
    "find src -name '*.ts' -type f",
    "sort -u names.txt",
    "uniq names.txt",
    "diff a.txt b.txt",
    "git status",
    "git status --short",
    "git --no-pager log --oneline -5",
    "git log -p -1",
    "git diff",
    "git diff --stat HEAD~1",
    "git show HEAD:src/a.ts",
    "git rev-parse --abbrev-ref HEAD",
    "git ls-files",
    "git branch",
    "git branch --show-current",
    "git branch -a -v",
    "git remote -v",
    "git stash list",
    "git grep -n foo",
    "git config --get user.name",
    "ls 2>&1 | head -5",
    "cat x > /dev/null 2>/dev/null",
    "git status >&2",
    "git diff && git status",
    "cat <<EOF\nhello\nEOF",
    "cd src && ls",
    "jq .name package.json",
  ])("%s", (command) => {
    expect(readOnly(command)).toBe(true);
  });
});

describe("isProvablyReadOnly: a snapshot first for these", () => {
  it.each([
    ["a build or test run", "npm test"],
    ["an unknown program", "make"],
    ["a program by path", "./ls"],
    ["a program by absolute path", "/bin/ls"],
    ["an output redirect", "echo x > out.txt"],
    ["an appending redirect", "git log >> log.txt"],
    ["a redirect into a descriptor file", "cat a 2>err.txt"],
    ["a command substitution", "echo $(git checkout .)"],
    ["backticks", "echo `git checkout .`"],
    ["a variable", "ls $HOME"],
    ["a glob", "ls *.ts"],
    ["an env prefix", "GIT_EXTERNAL_DIFF=./x git diff"],
    ["an assignment", "PATH=.:$PATH; ls"],
    ["an interpreter", "python3 -c 'print(1)'"],
    [
      "base64-encoded Python",
      `python3 -c "import base64;exec(base64.b64decode('aW1wb3J0IG9z'))"`,
    ],
    ["node -e", "node -e 'require(\"fs\")'"],
    ["bash -c", "bash -c 'ls'"],
    ["eval", "eval ls"],
    ["sudo", "sudo ls"],
    ["xargs", "ls | xargs rm"],
    ["a script", "./run.sh"],
    ["sh of a script", "sh run.sh"],
    ["a function", "f() { git checkout .; }; f"],
    ["git checkout", "git checkout ."],
    ["git reset", "git reset --hard"],
    ["git -C", "git -C src status"],
    ["git -c", "git -c core.pager=./x log"],
    ["git --git-dir", "git --git-dir=other/.git status"],
    ["git -p (a pager)", "git -p log"],
    ["git diff --output", "git diff --output=patch.txt"],
    ["git diff --ext-diff", "git diff --ext-diff"],
    ["git grep -O (a pager program)", "git grep -Ovim foo"],
    ["git branch creates", "git branch new-branch"],
    ["git branch -D", "git branch -D old"],
    ["git tag creates", "git tag v1"],
    ["git stash", "git stash"],
    ["git config sets", "git config user.name x"],
    ["git after cd", "cd sub && git status"],
    ["find -delete", "find . -name '*.log' -delete"],
    ["find -exec", "find . -exec rm {} +"],
    ["sort -o", "sort -o out.txt in.txt"],
    ["sort -no (clustered)", "sort -no out.txt in.txt"],
    ["uniq into a file", "uniq in.txt out.txt"],
    ["rg --pre", "rg --pre ./x foo"],
    ["a write in a pipeline", "ls | tee list.txt"],
    ["rm", "rm -f a.txt"],
    ["an unparsable line", "echo 'x"],
    ["nothing at all", ""],
  ])("%s: %s", (_name, command) => {
    expect(readOnly(command)).toBe(false);
  });

  it("git away from the project's root (a nested repository's configuration may run programs)", () => {
    expect(readOnly("git status", false)).toBe(false);
    expect(readOnly("ls", false)).toBe(true);
  });
});

describe("looksReadOnly: the guess that starts git's listing early when false", () => {
  it.each([
    ["git status", true],
    ["git log --oneline | head -5", true],
    ["ls -la src", true],
    ["cat a.txt | grep x | wc -l", true],
    ["npm test", false],
    ["git status && npm test", false],
    ["cat x > y", false],
    ["ls $HOME", false],
    ["echo $(rm -rf x)", false],
    ["grep -r x src\nrm -rf src", false],
  ])("%s -> %s", (command, expected) => {
    expect(looksReadOnly(command)).toBe(expected);
  });
});
