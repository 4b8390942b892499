import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  createFinishedRepo,
  FINISHED_PLAYBOOK,
  pushConflictingStateToMain,
  pushConflictingWorkToMain,
} from "../helpers/finished-repo.ts";
import { PLAYBOOK, type GuardedRepo } from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";

const ARCHIVED = "plan/archive/playbook-login-form.md";

/** `git` in the bare remote. */
const bare = (repo: GuardedRepo, ...args: string[]) =>
  execFileSync("git", args, { cwd: repo.remoteDir, encoding: "utf8" }).trim();

function archive(repo: GuardedRepo, ...args: string[]) {
  return runCli(
    ["archive", "--provider", "local", "--cwd", repo.dir, ...args],
    {
      env: {
        GITHUB_TOKEN: undefined,
        GH_TOKEN: undefined,
        CLAUDE_CODE_SESSION_ID: "session-1",
      },
    },
  );
}

describe("playbook archive, local provider", () => {
  it("refuses a playbook with lint errors (a misspelt final_tasks would archive without its tasks) and changes nothing", () => {
    const repo = createFinishedRepo({
      playbook: FINISHED_PLAYBOOK.replace("## final_tasks", "## final-tasks"),
    });
    const head = repo.git("rev-parse", "HEAD").trim();
    const result = archive(repo);
    expect(result.status).toBe(1);
    // The first line points at the misspelt heading, as `playbook lint` would.
    const line = FINISHED_PLAYBOOK.split("\n").indexOf("## final_tasks") + 1;
    expect(result.stderr.split("\n")[0]).toMatch(
      new RegExp(
        `^plan/playbook-login-form\\.md:${line}:1  error  plan/playbook-login-form\\.md has lint errors, first: Unexpected section \`## final-tasks\`, expected \`## final_tasks\``,
      ),
    );
    expect(repo.git("rev-parse", "HEAD").trim()).toBe(head);
    expect(existsSync(repo.path(".claude/playbook/archive-journal.json"))).toBe(
      false,
    );
  });

  it("run again after it finished, plain or --resume, says it is already archived, with the next step, and exits 0", () => {
    const repo = createFinishedRepo();
    expect(archive(repo).status).toBe(0);
    for (const args of [[], ["--resume"]]) {
      const again = archive(repo, ...args);
      expect(again.stderr).toBe("");
      expect(again.stdout.trim()).toBe(
        `already archived: plan/playbook-login-form.md → ${ARCHIVED}. Next: run /post-loop (\`playbook post-loop\`) to pick the next task.`,
      );
      expect(again.status).toBe(0);
    }
  });

  it("commits the work, merges the branch with --no-ff, archives the playbook, resets state.md and sets the lock", () => {
    const repo = createFinishedRepo();
    const result = archive(repo);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/✓ commit\s+1 file \([0-9a-f]{7}\)/);
    expect(result.stdout).toContain(
      "archived plan/playbook-login-form.md → plan/archive/playbook-login-form.md",
    );

    // The remote's main has the merge commit (two parents) with the work, the archived playbook and the reset state.
    const parents = bare(repo, "rev-list", "--parents", "-n1", "main").split(
      " ",
    );
    expect(parents).toHaveLength(3);
    expect(bare(repo, "show", "main:src/login-form.tsx")).toBe(
      "export const LoginForm = () => null;",
    );
    expect(bare(repo, "ls-tree", "--name-only", "main", "plan/archive/")).toBe(
      ARCHIVED,
    );
    expect(() => bare(repo, "cat-file", "-e", `main:${PLAYBOOK}`)).toThrow();
    const state = bare(repo, "show", "main:state.md");
    expect(state).toContain("active: null");
    expect(state).toContain(`last_archived: ${ARCHIVED}`);
    expect(state).toContain("done_criteria: []");
    expect(state).toContain("status: idle");
    // The playbook's branch is gone from the remote; the clone is on main, up to date.
    expect(bare(repo, "branch", "--list", "feat/login-form")).toBe("");
    expect(repo.git("branch", "--show-current").trim()).toBe("main");
    expect(repo.git("rev-parse", "HEAD").trim()).toBe(
      bare(repo, "rev-parse", "main"),
    );
    // The lock, and the journal says success.
    const lock = JSON.parse(
      repo.read(".claude/playbook/post-loop.json"),
    ) as Record<string, unknown>;
    expect(lock).toMatchObject({
      status: "success",
      playbook: ARCHIVED,
      pr: null,
      session: "session-1",
    });
    const journal = JSON.parse(
      repo.read(".claude/playbook/archive-journal.json"),
    ) as { status: string };
    expect(journal.status).toBe("success");
  });

  it("prints the plan with --dry-run and changes nothing", () => {
    const repo = createFinishedRepo();
    const head = repo.git("rev-parse", "HEAD");
    const result = archive(repo, "--dry-run");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "archive plan for plan/playbook-login-form.md (local, feat/login-form → main):",
    );
    expect(result.stdout).toContain(`git mv ${PLAYBOOK} ${ARCHIVED}`);
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
    expect(existsSync(repo.path(".claude/playbook/archive-journal.json"))).toBe(
      false,
    );
    expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(
      false,
    );
    // The plan lists the very steps the archive then runs, in the same order.
    const stepIds = (out: string) =>
      [
        ...out.matchAll(
          /^\s*\S+\s+(commit|push|open-pr|archive-playbook|reset-state|merge|cleanup|lock)\b/gm,
        ),
      ].map((m) => m[1]);
    const run = archive(repo);
    expect(run.status).toBe(0);
    expect(stepIds(result.stdout)).toHaveLength(8);
    expect(stepIds(run.stdout)).toEqual(stepIds(result.stdout));
  });

  it("refuses a playbook that is not finished, saying what is missing", () => {
    const repo = createFinishedRepo();
    repo.write(
      PLAYBOOK,
      repo.read(PLAYBOOK).replace("- [x] **ft1**", "- [ ] **ft1**"),
    );
    const result = archive(repo);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      "is not finished: final task ft1 is not checked",
    );
  });

  it("refuses files that look like secrets and commits nothing", () => {
    // The secrets were there when verify ran: the evidence is current, and the commit step refuses them.
    const repo = createFinishedRepo(
      {},
      {
        ".env.local": "API_KEY=abc\n",
        "src/config.ts": "export const key = 'ghp_" + "a".repeat(36) + "';\n",
      },
    );
    const head = repo.git("rev-parse", "HEAD");
    const result = archive(repo);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("✗ commit");
    // By content: the token, at its line, masked; `.env.local` holds no secret a rule knows.
    expect(result.stdout).toContain(
      "src/config.ts:1:21 export const key = '**** (rule github, GITHUB_TOKEN)",
    );
    expect(result.stdout).not.toContain(".env.local");
    expect(result.stdout).not.toContain("a".repeat(12));
    expect(result.stdout).toContain("partial: take the value out of the file");
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(repo.path(".env.local"), "utf8")).toBe("API_KEY=abc\n");
  });

  it("pushes nothing when an earlier commit of the branch added a secret, even one a later commit removed", () => {
    const token = "ghp_" + "b".repeat(36);
    const repo = createFinishedRepo({}, {}, (r) => {
      r.write(".env", "API_KEY=abc\n");
      r.write("src/config.ts", `export const key = '${token}';\n`);
      r.git("add", ".env", "src/config.ts");
      r.git("commit", "-q", "-m", "config");
      r.git("rm", "-q", ".env");
      r.write("src/config.ts", "export const key = process.env.KEY;\n");
      r.git("add", "src/config.ts");
      r.git("commit", "-q", "-m", "no secrets left");
    });
    const main = bare(repo, "rev-parse", "main");
    const result = archive(repo);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("✗ push");
    expect(result.stdout).toMatch(
      /\.env:1:1 \*\*\*\* \(rule no-dotenv, FOUND_DOTENV_FILE, added by [0-9a-f]{7}\)/,
    );
    expect(result.stdout).toMatch(
      /src\/config\.ts:1:21 export const key = '\*\*\*\* \(rule github, GITHUB_TOKEN, added by [0-9a-f]{7}\)/,
    );
    expect(result.stdout).not.toContain("b".repeat(12));
    expect(result.stdout).toContain("git rebase -i origin/main");
    expect(bare(repo, "branch", "--list", "feat/login-form")).toBe("");
    expect(bare(repo, "rev-parse", "main")).toBe(main);
    expect(
      execFileSync("git", ["log", "--all", "-p"], {
        cwd: repo.remoteDir,
        encoding: "utf8",
      }),
    ).not.toContain(token);
  });

  it("a merge that conflicts in the work stops with main merged into the branch and only the work's conflicts left, and the next step ends merged", () => {
    const repo = createFinishedRepo();
    pushConflictingWorkToMain(repo);
    const result = archive(repo);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      "✗ merge            feat/login-form and origin/main changed the same lines (in src/login-form.tsx), which only a person can reconcile; origin/main is being merged into feat/login-form here, with those conflicts left in the files.",
    );
    expect(result.stdout).toContain(
      "partial: resolve the conflicts in src/login-form.tsx, `git add` them and `git commit` (or `git merge --abort` to go back), then run `playbook archive --resume`.",
    );
    expect(repo.git("branch", "--show-current").trim()).toBe("feat/login-form");
    expect(repo.git("status", "--porcelain").trim()).toBe(
      "AA src/login-form.tsx",
    );
    expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(
      false,
    );
    // The branch with the work is safe on the remote.
    expect(bare(repo, "show", "feat/login-form:src/login-form.tsx")).toContain(
      "LoginForm",
    );
    // Resumed before the conflicts are resolved, it says so again.
    expect(archive(repo, "--resume").stdout).toContain(
      "src/login-form.tsx has unresolved merge conflicts.",
    );

    // The next step, followed as written, ends merged.
    repo.write("src/login-form.tsx", "export const LoginForm = () => null;\n");
    repo.git("add", "src/login-form.tsx");
    repo.git("commit", "-q", "--no-edit");
    const resumed = archive(repo, "--resume");
    expect(resumed.stdout).toContain("archived plan/playbook-login-form.md");
    expect(resumed.status).toBe(0);
    expect(bare(repo, "show", "main:src/login-form.tsx")).toBe(
      "export const LoginForm = () => null;",
    );
  });

  it("state.md changed on main as well (another archive's bookkeeping) merges without a person: the archive's values win", () => {
    const repo = createFinishedRepo();
    pushConflictingStateToMain(repo);
    const result = archive(repo);
    expect(result.stdout).toMatch(
      /✓ merge\s+feat\/login-form merged into main \(--no-ff\), state\.md's bookkeeping merged with main's, pushed to origin/,
    );
    expect(result.status).toBe(0);
    const state = bare(repo, "show", "main:state.md");
    expect(state).toContain("active: null");
    expect(state).toContain(`last_archived: ${ARCHIVED}`);
    expect(state).not.toContain("<<<<<<<");
    // The local main was behind the remote's (not the commit merged onto): it is read again and brought forward.
    expect(repo.git("rev-parse", "main").trim()).toBe(
      bare(repo, "rev-parse", "main"),
    );
    expect(repo.git("branch", "--show-current").trim()).toBe("main");
  });

  it("playbook post-loop lifts the lock and points at the next task", () => {
    const repo = createFinishedRepo();
    expect(archive(repo).status).toBe(0);
    const first = runCli(["post-loop", "--cwd", repo.dir]);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(
      "plan/archive/playbook-login-form.md was archived with status success; the lock is lifted.",
    );
    expect(first.stdout).toContain("Skill(playbook-init)");
    expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(
      false,
    );
    expect(repo.read(".claude/playbook/logs/locks.log")).toContain(
      "playbook post-loop",
    );
    expect(runCli(["post-loop", "--cwd", repo.dir]).stdout).toContain(
      "No post-loop lock was set.",
    );
  });
});
