import { execFileSync } from "node:child_process";
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  PLAYBOOK,
  SESSION,
  type GuardedRepo,
  type HookReplyView,
} from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";
import { SAMPLE_PLAYBOOK } from "../helpers/sample-docs.ts";

// Whole sessions replayed through the built bundles with the payloads Claude Code sends, asserting every reply.

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** The repository's session file for `id`. */
const sessionFile = (repo: GuardedRepo, id: string, suffix: string) =>
  repo.path(`.claude/playbook/sessions/${id}${suffix}`);

function stop(
  repo: GuardedRepo,
  message: string,
  extra: Record<string, unknown> = {},
): HookReplyView {
  return repo.hook("Stop", {
    stop_hook_active: false,
    last_assistant_message: message,
    ...extra,
  });
}

function transcript(repo: GuardedRepo, lines: unknown[]): string {
  const file = repo.path(".claude/transcript.jsonl");
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
  return file;
}

describe("a whole working session", () => {
  it("start, prompt, edits, a failed command, stops, compaction, the promise, the end", () => {
    const repo = createGuardedRepo();
    const stateBefore = repo.read("state.md");

    // 1. SessionStart: the summary, within budget; last_start written and nothing else in state.md.
    const calledAt = Date.now();
    const start = repo.hook("SessionStart", {
      source: "startup",
      model: "claude-sonnet-4-5",
    });
    const answeredAt = Date.now();
    expect(start.status).toBe(0);
    expect(start.decision).toBeNull();
    expect(start.context).toContain(
      `Active playbook: ${PLAYBOOK} on branch feat/login-form, reviewed.`,
    );
    expect(start.context).toContain(
      "Phase p1 (Form component): 1/2 subtasks checked; 1/3 in all.",
    );
    expect(start.context).toContain("Next: p1.1");
    expect(start.context).toContain("playbook verify p1.1");
    expect(bytes(start.context)).toBeLessThanOrEqual(1500);
    const stateAfter = repo.read("state.md");
    const stamp = /last_start: (\S+)/.exec(stateAfter)?.[1] ?? "";
    // The time of this start (a stamp in whole seconds may fall before the call within its second).
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(stamp)).toBeGreaterThanOrEqual(
      Math.floor(calledAt / 1000) * 1000,
    );
    expect(Date.parse(stamp)).toBeLessThanOrEqual(answeredAt);
    expect(stateAfter).toBe(
      stateBefore.replace(
        "last_start: 2026-11-21T10:00:00Z",
        `last_start: ${stamp}`,
      ),
    );

    // The stamp refreshed the parse cache: the next call reads it instead of loading the markdown parser.
    const cacheFile = repo.path(".claude/playbook/cache/state.md.json");
    const cached = JSON.parse(
      repo.read(".claude/playbook/cache/state.md.json"),
    ) as {
      size: number;
      mtimeMs: number;
      summary: { session: { lastStart: string } };
    };
    expect(cached.summary.session.lastStart).toBe(stamp);
    expect([cached.size, cached.mtimeMs]).toEqual([
      statSync(repo.path("state.md")).size,
      statSync(repo.path("state.md")).mtimeMs,
    ]);
    const cacheInode = statSync(cacheFile).ino;

    // 2. A work prompt: one status line, answered from the cache.
    const prompt = repo.hook("UserPromptSubmit", {
      prompt: "implement the login form component",
    });
    expect(statSync(cacheFile).ino).toBe(cacheInode);
    expect(prompt.context).toBe(
      "playbook: plan/playbook-login-form.md · p1 1/2 · 1/3 subtasks · next: p1.1 (do it, then playbook verify p1.1) · branch feat/login-form",
    );

    // 3. The work itself goes through the guards as before.
    expect(
      repo.pre("Edit", {
        file_path: repo.path("src/app.ts"),
        old_string: "1",
        new_string: "2",
      }).decision,
    ).toBeNull();

    // 4. A failed command is remembered for the loop's same-error gate, and adds nothing the first time.
    const failed = repo.hook("PostToolUseFailure", {
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_use_id: "toolu_2",
      error: "Exit code 1\nFAIL test/app.test.ts",
    });
    expect(failed.context).toBe("");

    // 5. The agent tries to stop with work open: continued with the next step, counted per phase.
    const first = stop(repo, "I set up the component file.");
    expect(first.decision).toBe("block");
    expect(first.reason).toContain("Next: p1.1");
    expect(first.reason).toContain("continuation 1/5 for p1");
    const second = stop(repo, "Still working.", { stop_hook_active: true });
    expect(second.reason).toContain("continuation 2/5 for p1");

    // 6. PreCompact saves the snapshot; SessionStart(compact) injects it first, with the uncommitted file.
    repo.write("src/login-form.tsx", "export const LoginForm = 1;\n");
    expect(
      repo.hook("PreCompact", { trigger: "auto", custom_instructions: "" }).raw,
    ).toBe("");
    const snapshot = JSON.parse(
      readFileSync(sessionFile(repo, SESSION, ".compact.json"), "utf8"),
    ) as {
      branch: string;
      changed: string[];
      playbook: { next: string };
      errors: string[];
    };
    expect(snapshot.branch).toBe("feat/login-form");
    expect(snapshot.changed).toContain("?? src/login-form.tsx");
    expect(snapshot.errors).toEqual(["Bash: Exit code 1"]);
    const compact = repo.hook("SessionStart", { source: "compact" });
    expect(compact.context.split("\n")[0]).toMatch(
      /^Restored after compaction \(saved .* on branch feat\/login-form\)\.$/,
    );
    expect(compact.context).toContain("?? src/login-form.tsx");
    expect(compact.context).toContain("Recent errors: Bash: Exit code 1");
    expect(bytes(compact.context)).toBeLessThanOrEqual(1500);
    expect(repo.read("state.md")).toBe(stateAfter); // compaction is the same session: last_start stays

    // 7. The agent needs the user: the promise lets it stop.
    expect(
      stop(repo, "I need the design file from you.\n<promise>DONE</promise>")
        .decision,
    ).toBeNull();

    // 8. SessionEnd: last_end written, the session marked ended.
    expect(repo.hook("SessionEnd", { reason: "prompt_input_exit" }).raw).toBe(
      "",
    );
    expect(repo.read("state.md")).toMatch(
      /last_end: \d{4}-\d\d-\d\dT[\d:.]+Z\n/,
    );
    const session = JSON.parse(
      readFileSync(sessionFile(repo, SESSION, ".state.json"), "utf8"),
    ) as {
      ended: string | null;
      endReason: string;
    };
    expect(session.ended).not.toBeNull();
    expect(session.endReason).toBe("prompt_input_exit");
  });
});

describe("resume and clear", () => {
  it("resume keeps the session's counters and stamps last_start; clear starts a new session", () => {
    const repo = createGuardedRepo();
    repo.hook("SessionStart", { source: "startup" });
    repo.hook("UserPromptSubmit", { prompt: "build the form" });
    expect(stop(repo, "a").reason).toContain("continuation 1/5 for p1");
    const before = repo.read("state.md");
    const resumed = repo.hook("SessionStart", { source: "resume" });
    expect(resumed.context).toContain("Active playbook");
    expect(repo.read("state.md")).not.toBe(before); // last_start written again
    repo.hook("UserPromptSubmit", { prompt: "go on" });
    expect(stop(repo, "b").reason).toContain("continuation 2/5 for p1");

    // /clear ends this session and starts another one with a new id.
    repo.hook("SessionEnd", { reason: "clear" });
    repo.hook("SessionStart", { session_id: "after-clear", source: "clear" });
    repo.hook("UserPromptSubmit", {
      session_id: "after-clear",
      prompt: "continue the form",
    });
    const fresh = repo.hook("Stop", {
      session_id: "after-clear",
      stop_hook_active: false,
      last_assistant_message: "c",
    });
    expect(fresh.reason).toContain("continuation 1/5 for p1");
  });
});

describe("the continuation loop ends under every gate", () => {
  it("the user speaking resets the run of continuations; N in a row lets the agent stop", () => {
    const repo = createGuardedRepo();
    repo.hook("UserPromptSubmit", { prompt: "fix the form" });
    for (let i = 1; i <= 5; i++)
      expect(stop(repo, "more", { stop_hook_active: i > 1 }).decision).toBe(
        "block",
      );
    const sixth = stop(repo, "more", { stop_hook_active: true });
    expect(sixth.decision).toBeNull();
    expect(sixth.notice).toContain("5 continuations in a row");
  });

  it("a question is answered without the loop", () => {
    const repo = createGuardedRepo();
    repo.hook("UserPromptSubmit", {
      prompt: "how does the login form validate the email?",
    });
    expect(stop(repo, "It checks for an @ sign.").decision).toBeNull();
  });

  it("the same error three times is reported as structural", () => {
    const repo = createGuardedRepo();
    repo.hook("UserPromptSubmit", { prompt: "make the tests pass" });
    let last: HookReplyView | undefined;
    for (let i = 0; i < 3; i++)
      last = repo.hook("PostToolUseFailure", {
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        tool_use_id: `t${i}`,
        error: `Exit code 1\nFAIL test/login.test.ts (${100 + i} ms)`,
      });
    expect(last?.context).toContain("same failure 3 times in a row");
    const ended = stop(repo, "Tests still fail.");
    expect(ended.decision).toBeNull();
    expect(ended.notice).toContain("the same error happened 3 times in a row");
  });

  it("a sandbox that could not start because a parallel session's sandbox held .git/config.lock says to run the command again, and is no failure of it", () => {
    const repo = createGuardedRepo();
    repo.hook("UserPromptSubmit", { prompt: "make the tests pass" });
    let last: HookReplyView | undefined;
    for (let i = 0; i < 3; i++)
      last = repo.hook("PostToolUseFailure", {
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        tool_use_id: `t${i}`,
        error: `Exit code 1\nbwrap: Can't ${i === 1 ? "find source path" : "get type of source"} /work/app/.git/config.lock: No such file or directory`,
      });
    expect(last?.context).toContain(
      "Claude Code's sandbox could not start this command: a sandboxed command of another session on this repository (a parallel worktree) held .git/config.lock at that moment (Claude Code's bug anthropics/claude-code#78818). The command did not run: run it again as it was.",
    );
    expect(last?.context).not.toContain("same failure");
    expect(stop(repo, "Tests still fail.").decision).toBe("block");
  });

  it("the phase's max_iterations caps the session's continuations", () => {
    const repo = createGuardedRepo({
      playbook: SAMPLE_PLAYBOOK.replace(
        "reviewed: false",
        "reviewed: true",
      ).replace("**max_iterations**: 5", "**max_iterations**: 2"),
    });
    repo.hook("UserPromptSubmit", { prompt: "build the form" });
    expect(stop(repo, "a").decision).toBe("block");
    repo.hook("UserPromptSubmit", { prompt: "keep going" });
    expect(stop(repo, "b").decision).toBe("block");
    repo.hook("UserPromptSubmit", { prompt: "keep going" });
    const capped = stop(repo, "c");
    expect(capped.decision).toBeNull();
    expect(capped.notice).toContain("p1 reached its 2 continuations");
  });

  it("an interrupt, an API error or a nearly full context never continues", () => {
    const repo = createGuardedRepo();
    transcript(repo, [
      {
        type: "assistant",
        message: {
          model: "claude-sonnet-4-5",
          usage: { input_tokens: 10, cache_read_input_tokens: 90_000 },
        },
      },
      {
        type: "user",
        message: {
          content: [{ type: "text", text: "[Request interrupted by user]" }],
        },
      },
    ]);
    expect(stop(repo, "partial").decision).toBeNull();
    transcript(repo, [
      {
        type: "assistant",
        message: {
          model: "claude-sonnet-4-5",
          usage: { input_tokens: 5_000, cache_read_input_tokens: 180_000 },
        },
      },
    ]);
    const full = stop(repo, "working");
    expect(full.decision).toBeNull();
    expect(full.notice).toContain("93% full");
    transcript(repo, []);
    expect(stop(repo, "API Error: 529 Overloaded").notice).toContain(
      "API error",
    );
  });

  it("the post-loop lock stops the loop (and Stop never deadlocks on it)", () => {
    const repo = createGuardedRepo();
    repo.write(
      ".claude/playbook/post-loop.json",
      JSON.stringify({
        status: "success",
        playbook: PLAYBOOK,
        pr: "#3",
        at: new Date().toISOString(),
        session: SESSION,
      }),
    );
    expect(stop(repo, "done").decision).toBeNull();
  });

  it("a broken state.md never blocks a stop", () => {
    const repo = createGuardedRepo();
    repo.write("state.md", "## playbook\n```yaml\nactive: [oops\n```\n");
    const reply = stop(repo, "bye");
    expect(reply.status).toBe(0);
    expect(reply.decision).toBeNull();
  });
});

describe("the plain loop", () => {
  it("re-feeds the prompt until the promise, and a cancel always wins", () => {
    const repo = createGuardedRepo({ reviewed: false });
    const started = runCli([
      "loop",
      "start",
      "Make the tests pass.",
      "--max",
      "3",
      "--promise",
      "GREEN",
      "--session",
      SESSION,
      "--cwd",
      repo.dir,
    ]);
    expect(started.status).toBe(0);
    const one = stop(repo, "Fixed one test.");
    expect(one.reason).toContain("Make the tests pass.");
    expect(one.reason).toContain("iteration 1/3");
    expect(
      stop(repo, "Fixed another.", { stop_hook_active: true }).reason,
    ).toContain("iteration 2/3");
    const done = stop(repo, "All tests pass. <promise>GREEN</promise>", {
      stop_hook_active: true,
    });
    expect(done.decision).toBeNull();
    expect(done.notice).toContain("finished after 2 iterations");
    expect(runCli(["loop", "status", "--cwd", repo.dir]).stdout).toContain(
      "loop: none running",
    );

    runCli([
      "loop",
      "start",
      "Again.",
      "--max",
      "9",
      "--session",
      SESSION,
      "--cwd",
      repo.dir,
    ]);
    expect(stop(repo, "x").decision).toBe("block");
    const cancelled = runCli(["loop", "cancel", "--cwd", repo.dir]);
    expect(cancelled.stdout).toContain("loop cancelled at iteration 1/9");
    expect(stop(repo, "y", { stop_hook_active: true }).decision).toBeNull();
    expect(existsSync(repo.path(".claude/playbook/loop.json"))).toBe(false);
  });

  it("stops at its maximum", () => {
    const repo = createGuardedRepo({ reviewed: false });
    runCli([
      "loop",
      "start",
      "Polish.",
      "--max",
      "1",
      "--session",
      SESSION,
      "--cwd",
      repo.dir,
    ]);
    expect(stop(repo, "a").decision).toBe("block");
    const end = stop(repo, "b", { stop_hook_active: true });
    expect(end.decision).toBeNull();
    expect(end.notice).toContain("maximum of 1 iterations");
  });

  it("a cancel also pauses the playbook continuation until the user speaks again", () => {
    const repo = createGuardedRepo();
    repo.hook("UserPromptSubmit", { prompt: "build the form" });
    runCli(["loop", "cancel", "--cwd", repo.dir]);
    expect(stop(repo, "a").decision).toBeNull();
    repo.hook("UserPromptSubmit", { prompt: "go on with the form" });
    expect(stop(repo, "b").decision).toBe("block");
  });
});

describe("two sessions sharing a repository", () => {
  it("never steer each other", () => {
    const repo = createGuardedRepo({ reviewed: false });
    runCli([
      "loop",
      "start",
      "Loop for A.",
      "--session",
      "session-A",
      "--cwd",
      repo.dir,
    ]);
    const inB = repo.hook("Stop", {
      session_id: "session-B",
      stop_hook_active: false,
      last_assistant_message: "b",
    });
    expect(inB.decision).toBeNull();
    const inA = repo.hook("Stop", {
      session_id: "session-A",
      stop_hook_active: false,
      last_assistant_message: "a",
    });
    expect(inA.reason).toContain("Loop for A.");
  });

  it("keep their own continuation counters", () => {
    const repo = createGuardedRepo();
    for (const id of ["session-A", "session-B"])
      repo.hook("UserPromptSubmit", {
        session_id: id,
        prompt: "work on the form",
      });
    for (let i = 0; i < 3; i++)
      repo.hook("Stop", {
        session_id: "session-A",
        stop_hook_active: i > 0,
        last_assistant_message: "a",
      });
    const b = repo.hook("Stop", {
      session_id: "session-B",
      stop_hook_active: false,
      last_assistant_message: "b",
    });
    expect(b.reason).toContain("continuation 1/5 for p1");
  });

  it("a post-loop lock stays while its session lives and is cleared once it ended", () => {
    const repo = createGuardedRepo();
    repo.hook("SessionStart", { session_id: "session-A", source: "startup" });
    repo.write(
      ".claude/playbook/post-loop.json",
      JSON.stringify({
        status: "success",
        playbook: "plan/archive/playbook-signup.md",
        pr: "#9",
        at: new Date().toISOString(),
        session: "session-A",
      }),
    );
    const whileAlive = repo.hook("SessionStart", {
      session_id: "session-B",
      source: "startup",
    });
    expect(whileAlive.context).toContain(
      "Post-loop lock: plan/archive/playbook-signup.md was archived (PR #9)",
    );
    expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(true);
    repo.hook("SessionEnd", {
      session_id: "session-A",
      reason: "prompt_input_exit",
    });
    const after = repo.hook("SessionStart", {
      session_id: "session-C",
      source: "startup",
    });
    expect(after.context).toContain(
      "The post-loop lock of plan/archive/playbook-signup.md (archived, PR #9, status success) was cleared",
    );
    expect(after.notice).toContain("was cleared");
    expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(
      false,
    );
    expect(
      readFileSync(repo.path(".claude/playbook/logs/locks.log"), "utf8"),
    ).toContain("session-A");
  });

  it("a lock whose session crashed long ago is cleared; one without an owner only when it is old", () => {
    const repo = createGuardedRepo();
    const old = new Date(Date.now() - 5 * 3_600_000).toISOString();
    repo.write(
      ".claude/playbook/post-loop.json",
      JSON.stringify({
        status: "partial",
        playbook: PLAYBOOK,
        pr: null,
        at: old,
        session: null,
      }),
    );
    const reply = repo.hook("SessionStart", {
      session_id: "session-D",
      source: "startup",
    });
    expect(reply.context).toContain("was cleared");
    expect(reply.context).toContain("playbook archive --resume");
  });
});

describe("state.md problems at session start", () => {
  it("repairs an active that names a missing playbook, with a backup", () => {
    const repo = createGuardedRepo();
    repo.git("rm", "-q", PLAYBOOK);
    repo.git("commit", "-q", "-m", "drop playbook");
    const before = repo.read("state.md");
    const reply = repo.hook("SessionStart", { source: "startup" });
    expect(reply.context).toContain(
      `state.md named \`${PLAYBOOK}\` as active, which does not exist; \`active\` is now null`,
    );
    expect(repo.read("state.md")).toContain("active: null\n");
    const backups = readdirSync(repo.path(".claude/playbook/backups"));
    expect(backups).toHaveLength(1);
    expect(
      readFileSync(
        join(repo.path(".claude/playbook/backups"), backups[0]!),
        "utf8",
      ),
    ).toBe(before);
  });

  it("points at the branch when the playbook exists there", () => {
    const repo = createGuardedRepo();
    // The playbook is committed on both branches; main then drops it while its state.md still names it.
    repo.git("switch", "-q", "main");
    repo.git("rm", "-q", PLAYBOOK);
    repo.git("commit", "-q", "-m", "drop on main");
    const reply = repo.hook("SessionStart", { source: "startup" });
    expect(reply.context).toContain(
      "it exists on branch `feat/login-form`, not on `main`. Next: `git switch feat/login-form`.",
    );
    expect(repo.read("state.md")).toContain(`active: ${PLAYBOOK}`);
  });

  it("a corrupted compaction snapshot is reported and the current state shown", () => {
    const repo = createGuardedRepo();
    repo.write(
      `.claude/playbook/sessions/${SESSION}.compact.json`,
      "{ this is not json",
    );
    const reply = repo.hook("SessionStart", { source: "compact" });
    expect(reply.context.split("\n")[0]).toBe(
      "playbook: the snapshot PreCompact saved is unreadable (not JSON); the current state follows.",
    );
    expect(reply.context).toContain("Active playbook");
  });

  it("a broken configuration is said, and the defaults apply", () => {
    const repo = createGuardedRepo();
    repo.write(".claude/playbook.json", '{"context": {"maxBytes": 5}}');
    const reply = repo.hook("SessionStart", { source: "startup" });
    expect(reply.context).toContain(
      "Problem: Unexpected 5 at `context.maxBytes`, expected >=200.",
    );
  });
});

describe("injected text stays small", () => {
  it("within the configured budget, whatever the playbook holds", () => {
    const long = "a very long criterion that keeps going ".repeat(40);
    const playbook = SAMPLE_PLAYBOOK.replace(
      "reviewed: false",
      "reviewed: true",
    ).replace("`src/login-form.tsx` exports `LoginForm`", long);
    const repo = createGuardedRepo({
      playbook,
      files: { ".claude/playbook.json": '{"context": {"maxBytes": 400}}' },
    });
    const start = repo.hook("SessionStart", { source: "startup" });
    expect(bytes(start.context)).toBeLessThanOrEqual(400);
    expect(start.context).toContain("Active playbook");
    const prompt = repo.hook("UserPromptSubmit", { prompt: "go" });
    expect(bytes(prompt.context)).toBeLessThanOrEqual(320);
  });

  it("can be turned off", () => {
    const repo = createGuardedRepo({
      files: {
        ".claude/playbook.json":
          '{"context": {"sessionStart": false, "prompt": false}}',
      },
    });
    expect(repo.hook("SessionStart", { source: "startup" }).context).toBe("");
    expect(repo.hook("UserPromptSubmit", { prompt: "hello" }).context).toBe("");
  });
});

describe("prompts without a playbook", () => {
  it.each([
    ["implement a logout button", true],
    ["ログアウトボタンを実装して", true],
    ["로그아웃 버튼을 추가해 줘", true],
    ["how does the session cookie work?", false],
    ["ログイン機能はどう動いていますか？", false],
    ["thanks!", false],
  ])("%s → points at playbook-init: %s", (prompt, expected) => {
    const repo = createGuardedRepo({
      state:
        "# state\n\n## playbook\n\n```yaml\nactive: null\nbranch: null\nlast_archived: null\n```\n",
    });
    const reply = repo.hook("UserPromptSubmit", { prompt });
    expect(reply.context.includes("Skill(playbook-init)")).toBe(expected);
    expect(reply.context).toContain("playbook: no active playbook");
  });
});

describe("the status line", () => {
  it("shows branch, playbook progress, next step and lock, through the hook bundle and the CLI", () => {
    const repo = createGuardedRepo();
    const input = JSON.stringify({
      session_id: SESSION,
      cwd: repo.dir,
      workspace: { current_dir: repo.dir, project_dir: repo.dir },
    });
    const viaHook = execFileSync(
      process.execPath,
      [join(import.meta.dirname, "../../dist/hook.cjs"), "statusline"],
      {
        input,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", CLAUDE_PROJECT_DIR: "" },
      },
    );
    expect(viaHook).toBe(
      "feat/login-form │ login-form p1 1/2 ███░░░░░ 1/3 │ next: implement p1.1\n",
    );
    const viaCli = execFileSync(
      process.execPath,
      [join(import.meta.dirname, "../../dist/cli.mjs"), "statusline"],
      {
        input,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", CLAUDE_PROJECT_DIR: "" },
      },
    );
    expect(viaCli).toBe(viaHook);
    repo.write(
      ".claude/playbook/post-loop.json",
      JSON.stringify({
        status: "success",
        playbook: PLAYBOOK,
        pr: null,
        at: null,
        session: SESSION,
      }),
    );
    const locked = execFileSync(
      process.execPath,
      [join(import.meta.dirname, "../../dist/hook.cjs"), "statusline"],
      {
        input,
        encoding: "utf8",
        env: { ...process.env, FORCE_COLOR: "0" },
      },
    );
    expect(locked).toContain("post-loop lock (success): /post-loop");
  });
});

describe("one next step, everywhere", () => {
  const statusLine = (repo: ReturnType<typeof createGuardedRepo>) =>
    execFileSync(
      process.execPath,
      [join(import.meta.dirname, "../../dist/hook.cjs"), "statusline"],
      {
        input: JSON.stringify({
          session_id: SESSION,
          cwd: repo.dir,
          workspace: { current_dir: repo.dir, project_dir: repo.dir },
        }),
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", CLAUDE_PROJECT_DIR: "" },
      },
    );

  it("an unreviewed plan: the status line, the session summary, the prompt, status and the guard all say review", () => {
    const repo = createGuardedRepo({ reviewed: false });
    expect(statusLine(repo)).toContain("next: review the plan");
    expect(repo.hook("SessionStart", { source: "startup" }).context).toContain(
      "Next: have the reviewer subagent review plan/playbook-login-form.md",
    );
    expect(
      repo.hook("UserPromptSubmit", { prompt: "go on" }).context,
    ).toContain("next: review the plan");
    const status = runCli(["status", "--cwd", repo.dir], {
      env: { NO_COLOR: "1" },
    });
    expect(status.stdout).toContain(
      "next      review the plan: have the reviewer subagent review",
    );
    const edit = repo.pre("Edit", {
      file_path: repo.path("src/app.ts"),
      old_string: "1",
      new_string: "2",
    });
    expect(edit.decision).toBe("deny");
    expect(edit.reason).toContain("have the reviewer subagent review");
  });

  it("a hand-typed reviewed: true and a hand-ticked box are problems status names, not 'no problems found'", () => {
    const repo = createGuardedRepo({ reviewed: true, reviewRecord: false });
    repo.write(
      PLAYBOOK,
      repo.read(PLAYBOOK).replace("- [ ] **p1.1**", "- [x] **p1.1**"),
    );
    const status = runCli(["status", "--cwd", repo.dir], {
      env: { NO_COLOR: "1" },
    });
    expect(status.stdout).not.toContain("no problems found");
    expect(status.stdout).toContain("2 problems");
    expect(status.stdout).toContain(
      "p1.1, p1.2 are checked without current proof",
    );
    expect(status.stdout).toContain(
      "`reviewed: true` without a current approval",
    );
    expect(statusLine(repo)).toContain("next: review the plan");
  });
});
