import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectDenied,
  PLAYBOOK,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";

beforeAll(() => {
  execFileSync("npm", ["run", "build", "--silent"], { stdio: "ignore" });
});

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
