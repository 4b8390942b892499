import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseEntry } from "../../src/adapters/summary-entry-file.ts";
import { describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectAllowed,
  expectDenied,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { readHookReply } from "../helpers/hook-reply.ts";
import { HOOK_BUNDLE, runHook } from "../helpers/run-hook.ts";
import { createTempProject } from "../helpers/temp-project.ts";

/** Runs `command` in the repository's shell with no hook in the way: what the refusal kept from happening. */
function runUnchecked(repo: GuardedRepo, command: string): void {
  spawnSync("bash", ["-c", command], { cwd: repo.dir, timeout: 60_000 });
}

/** A copy of dist/ whose `file` is replaced by `text`, to break one piece of the hook. */
function brokenDist(file: string, text: string | null): string {
  const dist = createTempProject().dir;
  const from = join(HOOK_BUNDLE, "..");
  for (const name of readdirSync(from))
    if (name.endsWith(".cjs")) copyFileSync(join(from, name), join(dist, name));
  const target = join(dist, file);
  if (text === null) execFileSync("rm", ["-f", target]);
  else writeFileSync(target, text);
  return join(dist, "hook.cjs");
}

function preToolUse(repo: GuardedRepo, command: string) {
  return {
    session_id: "session-1",
    transcript_path: "/dev/null",
    cwd: repo.dir,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
  };
}

describe("PreToolUse fails closed", () => {
  it("a call the hook could not check in time is refused, with what to do; with the time it has, the same call goes through", () => {
    const repo = createGuardedRepo();
    repo.bash("git status"); // state.md and the playbook are read and kept: only the command takes time
    const call = {
      tool_name: "Bash",
      tool_input: { command: "echo 2 > src/app.ts" },
    };
    const late = repo.hook("PreToolUse", call, {
      PLAYBOOK_CHECK_BUDGET_MS: "0",
    });
    expectDenied(late, "could not check this call within", "split");
    // The time alone refused it: the guards let this call through.
    expectAllowed(repo.hook("PreToolUse", call));
  });

  it("a call that ran out of time reading a playbook that changed says so, and the same call then goes through", () => {
    const repo = createGuardedRepo();
    repo.bash("git status");
    // The user edits the playbook: the hook's summary of it is stale, so the next call reads it again.
    repo.write(
      "plan/playbook-login-form.md",
      `${repo.read("plan/playbook-login-form.md")}\n<!-- noted by the user -->\n`,
    );
    const edit = {
      tool_name: "Edit",
      tool_input: {
        file_path: repo.path("src/app.ts"),
        old_string: "1",
        new_string: "2",
      },
    };
    const late = repo.hook("PreToolUse", edit, {
      PLAYBOOK_CHECK_BUDGET_MS: "0",
    });
    expectDenied(
      late,
      "reading `plan/playbook-login-form.md` took the time",
      "Next: make the same call again.",
    );
    expect(repo.hook("PreToolUse", edit).decision).not.toBe("deny");
  });

  it("a line nested deeper than the parser follows is refused, also when it names no playbook file", () => {
    const repo = createGuardedRepo();
    const nested = (inner: string) =>
      `echo ${"$(echo ".repeat(12)}${inner}${")".repeat(12)}`;
    for (const [command, target] of [
      [nested("$(rm -f state.md)"), "state.md"],
      [nested("$(rm -rf src)"), "src/app.ts"],
    ] as const) {
      expectDenied(
        repo.bash(command),
        "could not analyse this command",
        "nested",
      );
      // What the refusal kept: the shell follows the nesting the parser does not, and deletes the target.
      runUnchecked(repo, command);
      expect(existsSync(repo.path(target)), command).toBe(false);
    }
  });

  it("a line the parser gives up on is refused, not let through unchecked", () => {
    const repo = createGuardedRepo();
    // Arithmetic nested a hundred thousand levels deep overflows the parser's stack.
    const command = `echo $((${"(".repeat(100_000)}1${")".repeat(100_000)})) > src/app.ts`;
    expectDenied(repo.bash(command), "could not analyse this command");
  });

  it("a glob of a million characters next to a guarded target is answered and refused; the reason, cut to fit, still names the target and the next step", () => {
    const repo = createGuardedRepo();
    const command = `rm -rf /tmp/${"**?".repeat(300_000)} state.md`;
    const reply = repo.bash(command);
    expectDenied(
      reply,
      "state.md` could change `state.md` from the shell",
      "Next: use the Edit or Write tool for state.md",
    );
    expect(reply.reason).toMatch(/\n… \(\d+ characters left out\) …\n/);
  });

  it("a command over the 1 MB the parser reads is refused, whatever it names", () => {
    const repo = createGuardedRepo();
    const command = `echo ${"x".repeat(1100 * 1024)} > notes.txt`;
    expectDenied(repo.bash(command), "commands over 1024 KB are not analysed");
  });

  it("a hook bundle that cannot load refuses the call and says to run doctor", () => {
    const repo = createGuardedRepo();
    const result = runHook("PreToolUse", preToolUse(repo, "ls"), {
      bundle: brokenDist("hook-main.cjs", null),
      cwd: repo.dir,
      env: { CLAUDE_PROJECT_DIR: repo.dir },
    });
    expect(result.status).toBe(0);
    const reply = readHookReply(result.stdout);
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("playbook's hook failed");
    // A bundle outside any project's install names its own CLI, which works as written.
    expect(reply.reason).toMatch(/run `node \S+\/cli\.mjs doctor`/);
    expect(reply.reason).toContain("PLAYBOOK_DISABLE=1");
  });

  it("a crash while checking (a broken shell bundle) refuses the call", () => {
    const repo = createGuardedRepo();
    const result = runHook("PreToolUse", preToolUse(repo, "rm -f state.md"), {
      bundle: brokenDist("bash.cjs", 'throw new Error("broken bundle");'),
      cwd: repo.dir,
      env: { CLAUDE_PROJECT_DIR: repo.dir },
    });
    expect(result.status).toBe(0);
    const reply = readHookReply(result.stdout);
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("playbook's hook failed: broken bundle");
  });

  it("a cache entry edited into a shape the guards cannot read refuses one call, then is rebuilt", () => {
    const repo = createGuardedRepo();
    const edit = () =>
      repo.pre("Edit", {
        file_path: repo.path("src/app.ts"),
        old_string: "1",
        new_string: "2",
      });
    expect(edit().decision).toBeNull();
    const cache = ".claude/playbook/cache/plan__playbook-login-form.md.json";
    // As the hook reads it, then written back as plain JSON with a shape the guards cannot read.
    const entry = parseEntry(Buffer.from(repo.read(cache))) as {
      summary: Record<string, unknown>;
    };
    repo.write(
      cache,
      JSON.stringify({ ...entry, summary: { ...entry.summary, phases: {} } }),
    );

    const refused = edit();
    expect(refused.decision).toBe("deny");
    expect(refused.reason).toContain("failed");
    expect(existsSync(repo.path(cache))).toBe(false);
    expect(edit().decision).toBeNull();
  });

  it("other events still go on when the hook fails: nothing is refused there", () => {
    const repo = createGuardedRepo();
    const result = runHook(
      "PostToolUse",
      { ...preToolUse(repo, "ls"), hook_event_name: "PostToolUse" },
      {
        bundle: brokenDist("hook-main.cjs", null),
        cwd: repo.dir,
        env: { CLAUDE_PROJECT_DIR: repo.dir },
      },
    );
    expect(readHookReply(result.stdout).decision).toBeNull();
    expect(result.stderr).toContain("nothing was checked");
  });
});

describe("PreToolUse fails closed by construction", () => {
  /** A playbook of one huge paragraph: one chunk, which the parser reads in one uninterrupted step of seconds. */
  const slowPlaybook = (repo: GuardedRepo) =>
    `${repo.read("plan/playbook-login-form.md")}\n${"word *emph* `code` [link](x) ".repeat(60_000)}\n`;

  it("while a parse holds the main thread past the watchdog's time, the watchdog refuses the call with a reason", () => {
    const repo = createGuardedRepo();
    // state.md parsed and cached first: on a loaded machine its own cold parse could outlast the 0.3 s.
    repo.bash("git status");
    repo.write("plan/playbook-login-form.md", slowPlaybook(repo));
    const result = runHook(
      "PreToolUse",
      {
        session_id: "session-1",
        transcript_path: "/dev/null",
        cwd: repo.dir,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: repo.path("src/app.ts"), content: "x\n" },
      },
      {
        cwd: repo.dir,
        env: { CLAUDE_PROJECT_DIR: repo.dir, PLAYBOOK_WATCHDOG_MS: "300" },
      },
    );
    // One reply, the watchdog's, and then the process was ended: the parse never finished.
    const reply = readHookReply(result.stdout);
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("could not finish checking this call");
    expect(reply.reason).toContain("plan/playbook-login-form.md");
    expect(result.status).toBeNull();
  });

  it("when the hook answers first, the watchdog stays silent and the process ends normally", () => {
    const repo = createGuardedRepo();
    // Past the size parsed without a watchdog, in plain words that parse quickly: the watchdog is armed and waits.
    repo.write(
      "plan/playbook-login-form.md",
      `${repo.read("plan/playbook-login-form.md")}\n${"plain words only. ".repeat(2_500)}\n`,
    );
    const result = runHook(
      "PreToolUse",
      {
        session_id: "session-1",
        transcript_path: "/dev/null",
        cwd: repo.dir,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "git status" },
      },
      { cwd: repo.dir, env: { CLAUDE_PROJECT_DIR: repo.dir } },
    );
    // The cold cache made it parse, so the watchdog was armed; the hook's own reply is the only one.
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("");
  });

  it("a small document's cold parse starts no watchdog: even with the watchdog's time already past, the hook answers itself", () => {
    const repo = createGuardedRepo();
    const result = runHook(
      "PreToolUse",
      {
        session_id: "session-1",
        transcript_path: "/dev/null",
        cwd: repo.dir,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: repo.path("src/app.ts"), content: "x\n" },
      },
      {
        cwd: repo.dir,
        env: { CLAUDE_PROJECT_DIR: repo.dir, PLAYBOOK_WATCHDOG_MS: "1" },
      },
    );
    // The cache is cold (state.md and the playbook are parsed), yet the reply is the guards' own: the reviewed
    // plan allows the Write, and nothing refused it for time.
    expect(result.status).toBe(0);
    expect(readHookReply(result.stdout).decision).toBeNull();
  });

  it.each([
    ["state.md", 20 * 1024 * 1024],
    ["plan/playbook-login-form.md", 3 * 1024 * 1024],
  ])(
    "a %s grown past its limit by a parser-blind script is a broken document: refused at once, and the repair path stays open",
    (file, size) => {
      const repo = createGuardedRepo();
      repo.bash("git status");
      // What a sandboxed script can do, in a spelling the shell parser cannot read.
      const code = Buffer.from(
        `open(${JSON.stringify(repo.path(file))}, "a").write("x" * ${size})\n`,
      ).toString("base64");
      execFileSync(
        "python3",
        ["-c", `import base64;exec(base64.b64decode('${code}'))`],
        { cwd: repo.dir },
      );
      const reply = repo.pre("Edit", {
        file_path: repo.path("src/app.ts"),
        old_string: "export const app = 1;",
        new_string: "export const app = 2;",
      });
      expectDenied(reply, file, "more than the");
      // The repair: the Write tool replaces the document whole.
      const repair = repo.pre("Write", {
        file_path: repo.path(file),
        content: repo.read(file).slice(0, 200),
      });
      expect(repair.reason).not.toContain("more than the");
    },
  );
});

describe("settings that would let a failed hook through", () => {
  const oldSettings = (hooks: Record<string, unknown>) =>
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: "command",
                command: "node",
                args: [
                  "${CLAUDE_PROJECT_DIR}/.claude/hooks/playbook.cjs",
                  "PreToolUse",
                ],
                timeout: 10,
                ...hooks,
              },
            ],
          },
        ],
      },
    });

  it("are named at session start, every change is refused until they are upgraded, and reading still works", () => {
    const repo = createGuardedRepo();
    repo.write(".claude/settings.json", oldSettings({}));
    const start = repo.hook("SessionStart", { source: "startup" });
    expect(start.raw).toContain('without \\"onFailure\\": \\"block\\"');
    const write = repo.pre("Write", {
      file_path: repo.path("src/app.ts"),
      content: "x\n",
    });
    expectDenied(write, "onFailure", "npx --no playbook init");
    expectDenied(repo.bash("echo y > src/app.ts"), "onFailure");
    expect(
      repo.pre("Read", { file_path: repo.path("src/app.ts") }).decision,
    ).not.toBe("deny");
    // Upgraded (as `playbook init` writes them), the next session start clears it.
    repo.write(".claude/settings.json", oldSettings({ onFailure: "block" }));
    repo.hook("SessionStart", { source: "startup" });
    expect(
      repo.pre("Write", { file_path: repo.path("src/app.ts"), content: "x\n" })
        .reason,
    ).not.toContain("onFailure");
  });
});
