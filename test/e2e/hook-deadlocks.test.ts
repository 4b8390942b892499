import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectAllowed,
  runByPlaybook,
  PLAYBOOK,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { SAMPLE_PLAYBOOK } from "../helpers/sample-docs.ts";

/** A repository where every gating guard would block a source edit: on main, no playbook, lock set, unread. */
function lockedRepo(): GuardedRepo {
  const repo = createGuardedRepo({
    branch: "main",
    readAll: false,
    reviewed: false,
  });
  repo.write(
    "state.md",
    repo.read("state.md").replace(`active: ${PLAYBOOK}`, "active: null"),
  );
  repo.write(
    ".claude/playbook/post-loop.json",
    JSON.stringify({
      status: "partial",
      playbook: "plan/archive/playbook-old.md",
      pr: null,
      at: "2026-11-21T00:00:00Z",
      session: "old",
    }),
  );
  return repo;
}

/** Records passing evidence for p1.1's automated validations and the user's confirmation, then ticks its box. */
function proveAndTickP11(repo: GuardedRepo): void {
  for (const validation of ["technical", "consistency"] as const)
    repo.record({
      kind: "evidence",
      playbook: PLAYBOOK,
      target: "p1.1",
      validation,
      verdict: "PASS",
      detail: {},
    });
  repo.record({
    kind: "confirmation",
    playbook: PLAYBOOK,
    target: "p1.1",
    verdict: "PASS",
    by: "user",
    detail: {},
  });
  expectAllowed(
    repo.pre("Edit", {
      file_path: repo.path(PLAYBOOK),
      old_string: "- [ ] **p1.1**",
      new_string: "- [x] **p1.1**",
    }),
  );
}

describe("the deadlock corpus stays allowed", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = lockedRepo();
  });

  it("the locked repository really blocks a source edit (so the cases below mean something)", () => {
    const reply = repo.pre("Write", {
      file_path: repo.path("src/new.ts"),
      content: "x",
    });
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("/post-loop");
  });

  it.each([
    [
      "Edit state.md",
      (r: GuardedRepo) =>
        r.pre("Edit", {
          file_path: r.path("state.md"),
          old_string: "milestone: null",
          new_string: "milestone: m1",
        }),
    ],
    [
      "Write a new playbook",
      (r: GuardedRepo) =>
        r.pre("Write", {
          file_path: r.path("plan/playbook-next.md"),
          content: SAMPLE_PLAYBOOK.replace("[X]", "[ ]"),
        }),
    ],
    [
      "Edit a plan template",
      (r: GuardedRepo) =>
        r.pre("Write", {
          file_path: r.path("plan/template/notes.md"),
          content: "x",
        }),
    ],
    [
      "Read anything",
      (r: GuardedRepo) => r.pre("Read", { file_path: r.path("src/app.ts") }),
    ],
    ["Grep", (r: GuardedRepo) => r.pre("Grep", { pattern: "x" })],
  ])("%s", (_name, call) => {
    expectAllowed(call(repo));
  });

  it.each([
    "git status",
    "git log --oneline -5",
    "git diff HEAD",
    "git stash",
    "git stash pop",
    "git rebase --abort",
    "git rebase --continue",
    "git merge --abort",
    "git cherry-pick --skip",
    "git checkout feat/login-form",
    "git switch -c feat/next",
    "git branch -D old-branch",
    "playbook status",
    "playbook lint",
    "ls -la plan/ && cat state.md",
    "git commit -F - <<'EOF'\nfix: parse > and >> in messages\n\nrm -rf / is only text here; so is sed -i state.md\nEOF",
    "git commit -m 'docs: mention tee state.md'",
    "echo done > /dev/null 2>&1",
  ])("Bash: %s", (command) => {
    expectAllowed(repo.bash(command));
  });

  it.each(["playbook post-loop", "npx playbook verify p1.1"])(
    "Bash: %s is run by the hook itself, never refused",
    (command) => {
      const fresh = lockedRepo();
      const shown = runByPlaybook(fresh.bash(command));
      expect(shown.output).not.toContain("Blocked");
    },
  );
});

describe("a deleted or corrupted state.md never blocks for good", () => {
  it("deleted: a source edit says what is wrong, and writing state.md again is allowed", () => {
    const repo = createGuardedRepo();
    rmSync(repo.path("state.md"));
    const blocked = repo.pre("Write", {
      file_path: repo.path("src/new.ts"),
      content: "x",
    });
    expect(blocked.decision).toBe("deny");
    expect(blocked.reason).toContain("state.md is missing");
    expect(blocked.reason).toContain("plan/template/state-initial.md");
    expectAllowed(
      repo.pre("Write", {
        file_path: repo.path("state.md"),
        content: "# state\n",
      }),
    );
    expectAllowed(repo.bash("git checkout -- state.md"));
  });

  it("corrupted YAML: the block names the file and line, and the fix is allowed", () => {
    const repo = createGuardedRepo();
    const broken = repo
      .read("state.md")
      .replace("branch: feat/login-form", 'branch: "feat/login-form');
    repo.write("state.md", broken);
    const blocked = repo.pre("Write", {
      file_path: repo.path("src/new.ts"),
      content: "x",
    });
    expect(blocked.decision).toBe("deny");
    expect(blocked.reason).toMatch(/state\.md:\d+: /);
    expectAllowed(
      repo.pre("Edit", {
        file_path: repo.path("state.md"),
        old_string: 'branch: "feat/login-form',
        new_string: "branch: feat/login-form",
      }),
    );
  });

  it("a payload that is not JSON, an empty stdin and a wrong shape answer with a notice and never deny", () => {
    const repo = createGuardedRepo();
    for (const payload of ["{not json", "", "[]"]) {
      const result = execFileSync(
        process.execPath,
        ["dist/hook.cjs", "PreToolUse"],
        {
          input: payload,
          encoding: "utf8",
          env: { ...process.env, CLAUDE_PROJECT_DIR: repo.dir },
        },
      );
      const reply = JSON.parse(result) as {
        systemMessage: string;
        hookSpecificOutput?: unknown;
      };
      expect(reply.systemMessage).toContain("nothing was checked");
      expect(reply.hookSpecificOutput).toBeUndefined();
    }
    const missingTool = repo.hook("PreToolUse", { tool_input: {} });
    expect(missingTool.notice).toContain("tool_name");
    expect(missingTool.decision).toBeNull();
  });
});

describe("work along the Golden Path is allowed", () => {
  it("a source edit with a reviewed, recorded playbook on its branch", () => {
    const repo = createGuardedRepo();
    expectAllowed(
      repo.pre("Edit", {
        file_path: repo.path("src/app.ts"),
        old_string: "1",
        new_string: "2",
      }),
    );
    expectAllowed(
      repo.pre("Write", {
        file_path: repo.path("src/login-form.tsx"),
        content: "export {}\n",
      }),
    );
    expectAllowed(repo.bash("npm test && npx tsc --noEmit > build.log"));
  });

  it("ticking a subtask whose validations are backed by current records", () => {
    const repo = createGuardedRepo();
    proveAndTickP11(repo);
  });

  it("ticking a proven subtask in a playbook over 1 MB (a tick is not parsed, so its size does not matter); any other edit of it is refused with the size", () => {
    const notes = `${"<!-- a long design note kept in the playbook -->\n".repeat(24_000)}`;
    const repo = createGuardedRepo({
      playbook: `${SAMPLE_PLAYBOOK.replace("reviewed: false", "reviewed: true")}\n${notes}`,
    });
    expect(repo.read(PLAYBOOK).length).toBeGreaterThan(1024 * 1024);
    proveAndTickP11(repo);
    const reply = repo.pre("Edit", {
      file_path: repo.path(PLAYBOOK),
      old_string: "Who: the web team.",
      new_string: "Who: the web team and support.",
    });
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain(
      "more than the 1024 KB a playbook document may have",
    );
  });

  it("evidence that failed or went stale does not count", () => {
    const repo = createGuardedRepo();
    repo.record({
      kind: "evidence",
      playbook: PLAYBOOK,
      target: "p1.1",
      validation: "technical",
      verdict: "FAIL",
      detail: {},
    });
    repo.record({
      kind: "evidence",
      playbook: PLAYBOOK,
      target: "p1.1",
      validation: "consistency",
      verdict: "PASS",
      contentHash: "sha256:old",
      detail: {},
    });
    repo.record({
      kind: "confirmation",
      playbook: PLAYBOOK,
      target: "p1.1",
      verdict: "PASS",
      by: "user",
      detail: {},
    });
    const reply = repo.pre("Edit", {
      file_path: repo.path(PLAYBOOK),
      old_string: "- [ ] **p1.1**",
      new_string: "- [x] **p1.1**",
    });
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("technical: the last verification failed");
    expect(reply.reason).toContain("consistency: the evidence is stale");
  });

  it("a phase set done with every subtask checked and the critic's current PASS", () => {
    const repo = createGuardedRepo();
    repo.write(
      PLAYBOOK,
      repo.read(PLAYBOOK).replace("- [ ] **p1.1**", "- [x] **p1.1**"),
    );
    const setDone = () =>
      repo.pre("Edit", {
        file_path: repo.path(PLAYBOOK),
        old_string: "**status**: in_progress",
        new_string: "**status**: done",
      });
    const without = setDone();
    expect(without.decision).toBe("deny");
    expect(without.reason).toContain("/crit");
    repo.record({
      kind: "critic",
      playbook: PLAYBOOK,
      target: "p1",
      verdict: "PASS",
      by: "critic",
      detail: {},
    });
    expectAllowed(setDone());
  });

  it("the reviewer running `playbook review approve` is run by the hook itself, which records the approval", () => {
    const repo = createGuardedRepo({ reviewed: false });
    const shown = runByPlaybook(
      repo.bash("playbook review approve", {
        agent_type: "reviewer",
        agent_id: "a1f3c9",
      }),
    );
    expect(shown.status).toBe(0);
    expect(repo.read(PLAYBOOK)).toContain("reviewed: true");
    expect(
      existsSync(
        join(
          repo.dir,
          ".claude/playbook/records/plan__playbook-login-form.md/review.playbook.json",
        ),
      ),
    ).toBe(true);
    // The one-time grant was used up by the hook's own run.
    const grants = join(repo.dir, ".claude/playbook/grants");
    expect(existsSync(grants) ? readdirSync(grants).length : 0).toBe(0);
  });

  it("the critic running `playbook crit record` is run by the hook itself", () => {
    const repo = createGuardedRepo();
    const reply = repo.bash(
      "playbook crit record p1 PASS --evidence 'tests pass'",
      { agent_type: "critic", agent_id: "a1f3c9" },
    );
    expect(reply.decision).toBe("allow");
    expect(reply.command).toContain("job.cjs");
  });

  it("PLAYBOOK_DISABLE=1 turns every guard off", () => {
    const repo = lockedRepo();
    const reply = repo.hook(
      "PreToolUse",
      {
        tool_name: "Write",
        tool_input: { file_path: repo.path("src/x.ts"), content: "x" },
      },
      { PLAYBOOK_DISABLE: "1" },
    );
    expect(reply.raw).toBe("");
  });

  it("a 10 MB Write of a source file is checked and allowed", () => {
    const repo = createGuardedRepo();
    const reply = repo.pre("Write", {
      file_path: repo.path("src/big.ts"),
      content: "x".repeat(10 * 1024 * 1024),
    });
    expectAllowed(reply);
  });

  it("logs each call's timing and each block's reason", () => {
    const repo = createGuardedRepo({ branch: "main" });
    repo.pre("Write", { file_path: repo.path("src/x.ts"), content: "x" });
    const logs = join(repo.dir, ".claude/playbook/logs");
    expect(readdirSync(logs).sort()).toEqual([
      "block-reasons.log",
      "hook-timing.log",
    ]);
    writeFileSync(join(logs, "hook-timing.log"), "x".repeat(300 * 1024));
    repo.pre("Read", { file_path: repo.path("src/app.ts") });
    expect(readdirSync(logs).sort()).toEqual([
      "block-reasons.log",
      "hook-timing.log",
      "hook-timing.log.1",
    ]);
  });
});

describe("ordinary deletes stay allowed", () => {
  it.each([
    "rm -rf node_modules dist",
    "rm -rf ./build/*",
    "rm -f *.log build/*.tmp",
    "find . -name '*.tmp' -delete",
    "rm -rf /tmp/playbook-scratch",
    "git clean -n",
    "git push origin feat/login-form",
    "git push --force-with-lease origin feat/login-form",
  ])("%s", (command) => {
    const repo = createGuardedRepo();
    expectAllowed(repo.bash(command));
  });
});
