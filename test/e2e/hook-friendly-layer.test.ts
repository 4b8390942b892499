import { mkdirSync, symlinkSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectDenied,
  PLAYBOOK,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";

// The shell parser is the friendly layer: early, precise reasons. It must not refuse legitimate work.
describe("the shell check does not refuse legitimate work", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo();
    mkdirSync(repo.path("build"), { recursive: true });
  });

  it.each([
    ["python reading state.md", `python3 -c "print(open('state.md').read())"`],
    [
      "node reading a record (a trust path the OS keeps read-only)",
      `node -e "console.log(require('fs').readFileSync('.claude/playbook/records/x.json','utf8'))"`,
    ],
    [
      "python reading the playbook through pathlib",
      `python3 -c "from pathlib import Path; print(Path('${PLAYBOOK}').read_text())"`,
    ],
    [
      "node listing plan/",
      `node -e "console.log(require('fs').readdirSync('plan'))"`,
    ],
    ["rm -rf of a folder spelled through $PWD", 'rm -rf "$PWD/build"'],
    ["rm -rf of a folder spelled through $(pwd)", 'rm -rf "$(pwd)/build"'],
    ["a write spelled through ${PWD}", "echo x > ${PWD}/build/out.txt"],
    [
      "a write spelled through $CLAUDE_PROJECT_DIR",
      'echo x > "$CLAUDE_PROJECT_DIR/build/out.txt"',
    ],
    [
      "a write spelled through git rev-parse --show-toplevel",
      'echo x > "$(git rev-parse --show-toplevel)/build/out.txt"',
    ],
    ["rm -rf of a fresh mktemp folder", 'd=$(mktemp -d); rm -rf "$d"'],
    [
      "a write into a fresh mktemp folder",
      'd=$(mktemp -d) && echo x > "$d/out.txt"',
    ],
    [
      "cd into a fresh mktemp folder",
      'd=$(mktemp -d); cd "$d" && echo x > out',
    ],
    [
      "emptying a fresh mktemp folder after &&",
      'd=$(mktemp -d) && rm -rf "$d"/*',
    ],
    ["a variable set earlier in the line", "tmp=/tmp/scratch; rm -rf $tmp"],
    ["a loop over static words", 'for f in /tmp/a /tmp/b; do rm -f "$f"; done'],
    [
      "a loop writing into the repository",
      'for f in build/a build/b; do echo x > "$f"; done',
    ],
    [
      "xargs -0 fed by find -print0",
      'find /tmp/foo -name "*.tmp" -print0 | xargs -0 rm -f',
    ],
    [
      "xargs -0 -I{} fed by find -print0",
      "find /tmp/foo -print0 | xargs -0 -I{} rm {}",
    ],
    // Everyday work found refused through the real client: temp folders by every spelling, bulk edits by run-time names.
    ["rm -rf in $TMPDIR", 'rm -rf "$TMPDIR/calc-build"'],
    ["rm -rf in ${TMPDIR}", "rm -rf ${TMPDIR}/calc-build"],
    ["rm -rf in ${TMPDIR:-/tmp}", 'rm -rf "${TMPDIR:-/tmp}/calc-build"'],
    ["rm -rf in /tmp", "rm -rf /tmp/calc-build"],
    [
      "rm -rf of a fresh mktemp folder spelled in place",
      'rm -rf "$(mktemp -d)"',
    ],
    ["a copy into a fresh mktemp folder", 'cp -r src "$(mktemp -d)/"'],
    ["cd into $TMPDIR", 'cd "$TMPDIR" && rm -rf calc-build'],
    [
      "sed -i over xargs fed by find",
      'find src -name "*.ts" | xargs sed -i "s/a/b/"',
    ],
    [
      "sed -i over a loop on git ls-files",
      'for f in $(git ls-files src); do sed -i "s/a/b/" "$f"; done',
    ],
    ["sed -i over a glob", 'sed -i "s/a/b/" src/*.ts'],
    ["perl -pi over git ls-files", 'perl -pi -e "s/a/b/" $(git ls-files src)'],
    [
      "perl -pi over xargs -0",
      'git ls-files -z | xargs -0 perl -pi -e "s/a/b/"',
    ],
    ["sed -i over grep -l", 'grep -rl app . | xargs sed -i "s/app/App/g"'],
    ["xargs fed by git", "git ls-files | xargs rm -f"],
    [
      "xargs fed by find without -0",
      'find /tmp/foo -name "*.tmp" | xargs rm -f',
    ],
    [
      "xargs -0 rm fed by find at the root",
      'find . -name "*.orig" -print0 | xargs -0 rm -f',
    ],
  ])("%s", (_name, command) => {
    const reply = repo.bash(command);
    expect(reply.reason).toBe("");
    expect(reply.decision).toBeNull();
  });
});

describe("the same spellings still reach the guarded files", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo();
    mkdirSync(repo.path("docs"), { recursive: true });
    // A symlink made earlier, pointing into the records folder.
    symlinkSync(repo.path(".claude/playbook"), repo.path("docs/records"));
  });

  it.each([
    ["python writing state.md", `python3 -c "open('state.md','w').write('x')"`],
    [
      "node deleting state.md by a computed name",
      `node -e "require('fs')['unlink'+'Sync']('state.md')"`,
    ],
    ["$PWD", 'echo x > "$PWD/state.md"', "state.md"],
    ["${PWD}", "rm -f ${PWD}/state.md", "state.md"],
    ["$(pwd)", 'cp /tmp/x "$(pwd)/state.md"', "state.md"],
    ["`pwd`", "echo x > `pwd`/state.md", "state.md"],
    [
      "$CLAUDE_PROJECT_DIR",
      'echo x > "$CLAUDE_PROJECT_DIR/state.md"',
      "state.md",
    ],
    [
      "git rev-parse --show-toplevel",
      'rm -rf "$(git rev-parse --show-toplevel)/.claude/playbook"',
      ".claude/playbook",
    ],
    ["$HOME over the repository", `rm -rf "$HOME"`],
    ["./././", "echo x > ./././state.md", "state.md"],
    [
      "a doubled slash",
      "cp /tmp/x .claude//playbook/records/x.json",
      ".claude/playbook",
    ],
    [
      "a dot segment",
      "cp /tmp/x .claude/./playbook/records/x.json",
      ".claude/playbook",
    ],
    [
      "a `..` segment",
      "cp /tmp/x .claude/x/../playbook/records/x.json",
      ".claude/playbook",
    ],
    [
      "a symlinked folder made earlier",
      "cp /tmp/x docs/records/records/x.json",
      ".claude/playbook",
    ],
    ["$OLDPWD, known only when it runs", 'rm -rf "$OLDPWD"/*'],
  ])("%s", (_name, command, mention?: string) => {
    expectDenied(repo.bash(command), ...(mention ? [mention] : []));
  });
});

describe("variables the line sets reach the guarded files they name", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo();
  });

  it.each([
    ["an inherited variable", 'rm -rf "$TARGET"'],
    ["a variable naming state.md", "f=state.md; echo x > $f", "state.md"],
    [
      "a loop over state.md",
      "for f in state.md; do echo x > $f; done",
      "state.md",
    ],
    [
      "a loop variable reassigned in the body",
      "for f in a b; do f=state.md; echo x > $f; done",
    ],
    [
      "xargs -0 fed by find in plan/",
      "find plan -print0 | xargs -0 rm -f",
      "plan",
    ],
    ["`..` out of a fresh folder", 'd=$(mktemp -d); echo x > "$d/../state.md"'],
    [
      "a fresh folder's contents, were mktemp to fail",
      'd=$(mktemp -d); rm -rf "$d"/*',
    ],
    [
      "cp's destination, were mktemp to fail",
      "d=$(mktemp -d); cp x state.md $d",
      "state.md",
    ],
    [
      "mktemp in a folder of its own",
      'd=$(mktemp -p . -d); echo x > "$d/state.md"',
    ],
    [
      "mktemp after TMPDIR is set",
      "TMPDIR=. ; d=$(mktemp -d) ; echo x > $d/state.md",
    ],
    ["a binding that may not run", 'false && d=/tmp/x; rm -rf "$d"'],
    ["a use before the binding", 'rm -rf "$d"; d=/tmp/x'],
    ["two bindings", "d=/tmp/x; d=$OTHER; rm -rf $d"],
    ["a value split at a blank", 'd="a state.md"; rm $d', "state.md"],
    ["a prefix assignment", "d=/tmp/x rm -rf $d"],
    ["eval", "d=/tmp/x; eval 'd=.'; rm -rf $d"],
    ["source", "d=/tmp/x; source ./env.sh; rm -rf $d"],
    [".", "d=/tmp/x; . ./env.sh; rm -rf $d"],
    ["read", "d=/tmp/x; read d < list; rm -rf $d"],
    ["declare", "d=/tmp/x; declare d=.; rm -rf $d"],
    ["export", "d=/tmp/x; export d=.; rm -rf $d"],
    ["local", "d=/tmp/x; local d=.; rm -rf $d"],
    ["mapfile", "d=/tmp/x; mapfile d < list; rm -rf $d"],
    ["printf -v", "d=/tmp/x; printf -v d .; rm -rf $d"],
    ["a function", "d=/tmp/x; f() { d=.; }; f; rm -rf $d"],
    ["arithmetic", "d=/tmp/x; (( d = 0 )); rm -rf $d"],
    ["an assigning expansion", "d=/tmp/x; : ${e:=.}; rm -rf $d"],
    // A name known only at run time counts for the guarded files of the folder it starts in below the root, and from
    // the root for state.md and the playbooks the line names.
    [
      "a run-time name in plan/",
      'sed -i "s/x/y/" plan/$(ls plan | head -1)',
      "plan/playbook-login-form.md",
    ],
    [
      "a run-time name among files the line names in plan/",
      'sed -i "s/- \\[ \\]/- [x]/" $(ls plan/*.md)',
      "plan/playbook-login-form.md",
    ],
    [
      "a run-time name from .claude",
      'cd .claude && rm -f "$x"',
      ".claude/settings",
    ],
    ["a run-time name in .git", 'rm -f ".git/$ref"', ".git"],
    ["TMPDIR set in the line", 'TMPDIR=.; rm -rf "$TMPDIR"'],
    ["TMPDIR exported in the line", 'export TMPDIR=$PWD; rm -rf "$TMPDIR"/*'],
  ])("%s", (_name, command, mention?: string) => {
    expectDenied(repo.bash(command), ...(mention ? [mention] : []));
  });

  it("a path in a fresh folder that names state.md, were mktemp to fail", () => {
    expectDenied(
      repo.bash(`d=$(mktemp -d); echo x > "$d${repo.path("state.md")}"`),
      "state.md",
    );
  });
});
