import { execFileSync } from "node:child_process";
import { addWrittenFile } from "../../src/adapters/written-files-store.ts";
import {
  createGuardedRepo,
  PLAYBOOK,
  type GuardedRepo,
  type GuardedRepoOptions,
} from "./guarded-repo.ts";
import { SAMPLE_PLAYBOOK } from "./sample-docs.ts";
import { createTempProject } from "./temp-project.ts";

/** The sample playbook with every box ticked, both phases done and the final task checked, reviewed. */
export const FINISHED_PLAYBOOK = SAMPLE_PLAYBOOK.replace(
  "reviewed: false",
  "reviewed: true",
)
  .replace("- [ ] **p1.1**", "- [x] **p1.1**")
  .replace("- [ ] **p2.1**", "- [x] **p2.1**")
  .replace("- [ ] **ft1**", "- [x] **ft1**")
  .replace("**status**: in_progress", "**status**: done")
  .replace("**status**: pending", "**status**: done");

/**
 * The finished sample playbook with commands that run here (`test -f src/login-form.tsx`), and p1.1's consistency
 * validation as `consistency` (written in double quotes when it holds a single one).
 */
export function finishedPlaybookWith(consistency: string): string {
  const quote = consistency.includes("'") ? '"' : "'";
  return FINISHED_PLAYBOOK.replaceAll(
    /(automated|hybrid) - npx (vitest|tsc|playwright)[^"'\n+]*/g,
    "$1 - test -f src/login-form.tsx ",
  ).replace(
    "consistency: 'automated - test -f src/login-form.tsx '",
    `consistency: ${quote}${consistency}${quote}`,
  );
}

/**
 * A real repository (default branch `main` pushed to a local bare `origin`) on the playbook's branch, with the sample
 * playbook finished and every record that backs it: the review, passing evidence for each automated or hybrid
 * validation, the user's confirmation for each manual or hybrid one, the critic's PASS for each phase. The work
 * itself (`src/login-form.tsx`, and `work`) is left uncommitted, as an agent leaves it: written with its file tools,
 * so the hook listed each file for the archive's commit step.
 */
export function createFinishedRepo(
  options: GuardedRepoOptions = {},
  /** More uncommitted work, written before the evidence like the rest. */
  work: Record<string, string> = {},
  /** Runs after the work is written and before the evidence (file modes, git config). */
  prepare: (repo: GuardedRepo) => void = () => {},
): GuardedRepo {
  // The archive's mechanics are tested here, with evidence written by hand: its final gate, which runs every
  // validation again in a clean checkout (on by default), has tests of its own (archive-rerun, the Golden Path).
  const given = JSON.parse(
    options.files?.[".claude/playbook.json"] ??
      JSON.stringify(options.security ? { security: options.security } : {}),
  ) as { archive?: Record<string, unknown> };
  const config = `${JSON.stringify({
    ...given,
    archive: { requireRerun: false, ...given.archive },
  })}\n`;
  const repo = createGuardedRepo({
    playbook: FINISHED_PLAYBOOK,
    ...options,
    files: { ...options.files, ".claude/playbook.json": config },
  });
  // Written before the evidence, which proves the code as it is then.
  repo.write("src/login-form.tsx", "export const LoginForm = () => null;\n");
  for (const [path, text] of Object.entries(work)) repo.write(path, text);
  for (const path of ["src/login-form.tsx", ...Object.keys(work)])
    addWrittenFile(repo.dir, PLAYBOOK, path);
  prepare(repo);
  proveFinished(repo);
  return repo;
}

/**
 * Records every proof a finished playbook needs, as the review already does: passing evidence for each automated or
 * hybrid validation (proving the tree as it is now), the user's confirmation for each manual or hybrid one, the
 * critic's PASS for each phase, and the reviewer's approval of the plan they prove.
 */
export function proveFinished(
  repo: Pick<GuardedRepo, "summary" | "record">,
  playbook = PLAYBOOK,
): void {
  const summary = repo.summary(playbook);
  // Proof counts only in the plan as the reviewer approved it.
  repo.record({
    kind: "review",
    playbook,
    target: "playbook",
    verdict: "approve",
    by: "reviewer",
    detail: {},
  });
  for (const phase of summary.phases) {
    for (const subtask of phase.subtasks) {
      for (const [name, validation] of Object.entries(subtask.validations)) {
        if (validation.kind !== "manual")
          repo.record({
            kind: "evidence",
            playbook,
            target: subtask.id,
            validation: name as "technical" | "consistency" | "completeness",
            verdict: "PASS",
            detail: { command: "npm test", exitCode: 0 },
          });
        if (validation.kind !== "automated")
          repo.record({
            kind: "confirmation",
            playbook,
            target: subtask.id,
            verdict: "PASS",
            by: "user",
            detail: {},
          });
      }
    }
    repo.record({
      kind: "critic",
      playbook,
      target: phase.id,
      verdict: "PASS",
      by: "critic",
      detail: { evidence: "ran the tests" },
    });
  }
}

/**
 * Someone else, in another clone, changes on `main` the line of state.md that the archive also changes on the
 * playbook's branch, and pushes: merging the branch into `main` then conflicts in state.md alone.
 */
export function pushConflictingStateToMain(repo: GuardedRepo): void {
  pushToMain(repo, "edit state.md on main", (other) =>
    other.write(
      "state.md",
      other
        .read("state.md")
        .replace(
          "active: plan/playbook-login-form.md",
          "active: plan/playbook-other.md",
        ),
    ),
  );
}

/**
 * Someone else, in another clone, writes on `main` the file the playbook's work creates, differently, and pushes:
 * merging the branch into `main` then conflicts in the work itself, which only a person can resolve.
 */
export function pushConflictingWorkToMain(repo: GuardedRepo): void {
  pushToMain(repo, "another login form on main", (other) =>
    other.write("src/login-form.tsx", "export const LoginForm = 1;\n"),
  );
}

function pushToMain(
  repo: GuardedRepo,
  message: string,
  change: (other: ReturnType<typeof createTempProject>) => void,
): void {
  const other = createTempProject();
  execFileSync("git", ["clone", "--quiet", repo.remoteDir, other.dir]);
  change(other);
  const inOther = (...args: string[]) =>
    execFileSync(
      "git",
      ["-c", "user.name=o", "-c", "user.email=o@e.x", ...args],
      { cwd: other.dir },
    );
  inOther("add", "-A");
  inOther("commit", "--quiet", "-m", message);
  inOther("push", "--quiet", "origin", "main");
}
