import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectAllowed,
  expectDenied,
  PLAYBOOK,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { forgeIndex } from "../helpers/forge-index.ts";
import { runCli } from "../helpers/run-cli.ts";
import { SAMPLE_PLAYBOOK } from "../helpers/sample-docs.ts";

/** Passing evidence for `subtask`'s command validations and the user's confirmation, proving the tree as it is now. */
function prove(
  repo: GuardedRepo,
  subtask: string,
  detail: Record<string, unknown> = {},
) {
  for (const validation of ["technical", "consistency"] as const)
    repo.record({
      kind: "evidence",
      playbook: PLAYBOOK,
      target: subtask,
      validation,
      verdict: "PASS",
      detail,
    });
  if (subtask === "p1.2")
    repo.record({
      kind: "evidence",
      playbook: PLAYBOOK,
      target: subtask,
      validation: "completeness",
      verdict: "PASS",
      detail,
    });
  repo.record({
    kind: "confirmation",
    playbook: PLAYBOOK,
    target: subtask,
    verdict: "PASS",
    by: "user",
    detail: {},
  });
}

function tick(repo: GuardedRepo, subtask = "p1.1") {
  return repo.pre("Edit", {
    file_path: repo.path(PLAYBOOK),
    old_string: `- [ ] **${subtask}**`,
    new_string: `- [x] **${subtask}**`,
  });
}

describe("evidence proves the code as it was verified", () => {
  it("a tick with evidence of the code as it is now is allowed, also after the work is committed", () => {
    const repo = createGuardedRepo();
    repo.write("src/login-form.tsx", "export const LoginForm = 1;\n");
    prove(repo, "p1.1");
    repo.git("add", "-A");
    repo.git("commit", "-q", "-m", "work");

    expectAllowed(tick(repo));
  });

  it("a tick after the code changed since verify is refused, with the command to run again", () => {
    const repo = createGuardedRepo();
    prove(repo, "p1.1");
    repo.write("src/app.ts", "export const app = 2;\n");

    const reply = tick(repo);

    expectDenied(
      reply,
      "the code changed since verify",
      "npx --no playbook verify p1.1",
    );
  });

  it("a tick answered from the tree's basis (git started by the hook's loader) still sees a change made since", () => {
    const repo = createGuardedRepo();
    prove(repo, "p1.1");
    expectAllowed(tick(repo));
    expect(
      existsSync(repo.path(".claude/playbook/cache/.tree-basis.json")),
    ).toBe(true);
    repo.write("src/app.ts", "export const app = 2;\n");

    expectDenied(tick(repo), "the code changed since verify");
    repo.write("src/app.ts", "export const app = 1;\n");
    expectAllowed(tick(repo));
  });

  it("a tick while git cannot read the tree (a garbled .git/HEAD) is refused with git's words, and goes through once HEAD is back", () => {
    const repo = createGuardedRepo();
    prove(repo, "p1.1");
    expectAllowed(tick(repo));
    const head = repo.read(".git/HEAD");
    repo.write(".git/HEAD", "garbage\n");

    expectDenied(
      tick(repo),
      "git could not read the working tree",
      "not a git repository",
      "`git status`",
    );
    repo.write(".git/HEAD", head);
    expectAllowed(tick(repo));
  });

  it("an untracked file the validations never saw makes the evidence stale too", () => {
    const repo = createGuardedRepo();
    prove(repo, "p1.1");
    repo.write("src/extra.ts", "export const extra = 1;\n");

    expectDenied(tick(repo), "the code changed since verify");
  });

  it("a sparse file as large as the agent likes is read no longer than the hook's time: the tick is refused with the reason", () => {
    const repo = createGuardedRepo();
    prove(repo, "p1.1");
    repo.bash("git status"); // state.md and the playbook are read and kept: only the tree takes time
    // 64 GiB that cost no disk: reading them would take far longer than Claude Code waits for the hook.
    execFileSync("truncate", ["-s", "64G", repo.path("src/huge.bin")]);

    const reply = repo.hook(
      "PreToolUse",
      {
        tool_name: "Edit",
        tool_input: {
          file_path: repo.path(PLAYBOOK),
          old_string: "- [ ] **p1.1**",
          new_string: "- [x] **p1.1**",
        },
        tool_use_id: "toolu_1",
      },
      { PLAYBOOK_CHECK_BUDGET_MS: "1500" },
    );
    expectDenied(
      reply,
      "could not check this call within 1.5 s",
      "a very large file among the changes",
    );
  });

  it("a file git is told to assume unchanged or to skip is still the code: breaking it makes the evidence stale", () => {
    for (const flag of ["--assume-unchanged", "--skip-worktree"]) {
      const repo = createGuardedRepo();
      repo.write("src/flagged.ts", "export const flagged = 1;\n");
      repo.git("add", "src/flagged.ts");
      repo.git("commit", "-q", "-m", "app");
      repo.git("update-index", flag, "src/flagged.ts");
      prove(repo, "p1.1");
      expectAllowed(tick(repo));
      repo.write("src/flagged.ts", "export const flagged = 'broken';\n");

      expectDenied(tick(repo), "the code changed since verify");
    }
  });

  it("breaking a proven file and rewriting its .git/index entry (the proven blob id, the broken file's stat) is refused, with a basis and without", () => {
    const good = "export const multiply = (a, b) => a * b;\n";
    for (const basisFirst of [true, false]) {
      const repo = createGuardedRepo();
      repo.write("src/multiply.ts", good);
      repo.git("add", "src/multiply.ts");
      repo.git("commit", "-q", "-m", "multiply");
      prove(repo, "p1.1");
      if (basisFirst) expectAllowed(tick(repo));
      repo.write(
        "src/multiply.ts",
        "export const multiply = (a, b) => a + b;\n",
      );
      forgeIndex(repo.dir, { path: "src/multiply.ts", blob: good });
      // git itself takes the broken file for the committed one.
      expect(repo.git("ls-files", "-m", "-d")).toBe("");

      expectDenied(tick(repo), "the code changed since verify");
      // Refused again from the basis that reading left.
      expectDenied(tick(repo), "the code changed since verify");
    }
  });

  it("an edit of the playbook that only mentions done or PASS claims nothing and needs no evidence", () => {
    const repo = createGuardedRepo();
    repo.write("src/app.ts", "export const app = 2;\n");
    const goal = "What: a login form.";

    expectAllowed(
      repo.pre("Edit", {
        file_path: repo.path(PLAYBOOK),
        old_string: goal,
        new_string: `${goal} Done means the tests PASS.`,
      }),
    );
  });

  it("changes to the plan, state.md and the runtime folder do not", () => {
    const repo = createGuardedRepo();
    prove(repo, "p1.1");
    repo.write("plan/notes.md", "notes\n");
    repo.write("state.md", `${repo.read("state.md")}\n`);

    expectAllowed(tick(repo));
  });

  it("evidence recorded before playbook named the tree it proved counts as stale", () => {
    const repo = createGuardedRepo();
    prove(repo, "p1.1", { tree: null });

    expectDenied(
      tick(repo),
      "the evidence is stale",
      "npx --no playbook verify p1.1",
    );
  });

  it("a phase turning done after the code changed since verify is refused", () => {
    const repo = createGuardedRepo({
      playbook: SAMPLE_PLAYBOOK.replace(
        "reviewed: false",
        "reviewed: true",
      ).replace("- [ ] **p1.1**", "- [x] **p1.1**"),
    });
    prove(repo, "p1.1");
    prove(repo, "p1.2");
    repo.record({
      kind: "critic",
      playbook: PLAYBOOK,
      target: "p1",
      verdict: "PASS",
      by: "critic",
      detail: { evidence: "ran the tests" },
    });
    const done = () =>
      repo.pre("Edit", {
        file_path: repo.path(PLAYBOOK),
        old_string: "**status**: in_progress",
        new_string: "**status**: done",
      });
    expectAllowed(done());

    repo.write("src/app.ts", "export const app = 2;\n");

    expectDenied(
      done(),
      "p1 cannot be done",
      "p1.1 technical",
      "npx --no playbook verify",
    );
  });

  it("playbook check and playbook status report checked subtasks whose evidence proves older code", () => {
    const repo = createGuardedRepo({
      playbook: SAMPLE_PLAYBOOK.replace("reviewed: false", "reviewed: true"),
    });
    prove(repo, "p1.2");
    expect(runCli(["check"], { cwd: repo.dir }).stdout).not.toContain("p1.2");

    repo.write("src/app.ts", "export const app = 2;\n");

    const check = runCli(["check"], { cwd: repo.dir });
    expect(check.status).toBe(1);
    expect(check.stdout).toContain("checked p1.2 without current proof");
    expect(check.stdout).toContain("the code changed since verify");
    expect(runCli(["status"], { cwd: repo.dir }).stdout).toContain(
      "p1.2 is checked without current proof",
    );
  });
});
