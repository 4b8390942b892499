import { describe, expect, it } from "vitest";
import {
  GitCommandError,
  PushRejected,
} from "../../../../src/adapters/git-port.ts";
import {
  ARCHIVE_STEP_DEFS,
  StepFailure,
  type StepContext,
} from "../../../../src/app/archive/archive-steps.ts";
import { createCostMeter } from "../../../../src/app/archive/step-kit.ts";
import type { ArchiveJournal } from "../../../../src/core/archive/journal.ts";
import { defaultConfig } from "../../../../src/core/config/config.ts";
import type { GitPort } from "../../../../src/core/ports.ts";
import { createRecordSet } from "../../../../src/core/records/record-set.ts";
import type { PlaybookRecord } from "../../../../src/core/records/record.ts";
import { GitHubFake, type FakeCheck } from "../../../helpers/github-fake.ts";
import {
  playbookOf,
  recordFor,
  REVIEWED,
} from "../../../helpers/guard-context.ts";

// The GitHub steps of the archive (open-pr, merge) against the in-memory GitHub: neither step reads the disk, and the
// only git they ask for is the branch's commit and a push, which the clone below answers in memory.

const BRANCH = "feat/login-form";
const TITLE = "Users can log in with email and password";
const BASE_SHA = "a".repeat(40);
const WORK_SHA = "b".repeat(40);
const PR_URL = "https://github.com/acme/app/pull/1";
const RESUME = "then run `playbook archive --resume`";

/** The local clone as these steps see it: its branches, the commits it knows, and pushes into the fake GitHub. */
function createClone(github: GitHubFake) {
  const branches = new Map([
    ["main", BASE_SHA],
    [BRANCH, WORK_SHA],
  ]);
  const parents = new Map<string, string | null>([
    [BASE_SHA, null],
    [WORK_SHA, BASE_SHA],
  ]);
  const contains = (tip: string, sha: string): boolean => {
    for (let at: string | null = tip; at !== null; at = parents.get(at) ?? null)
      if (at === sha) return true;
    return false;
  };
  const notUsed = (name: string) => () =>
    Promise.reject(new Error(`git.${name} is not used by the GitHub steps`));
  const git: GitPort = {
    spawned: () => 0,
    resolve: (ref) =>
      Promise.resolve(
        ref.startsWith("refs/remotes/origin/")
          ? (github.branches.get(ref.slice("refs/remotes/origin/".length)) ??
              null)
          : (branches.get(ref.replace(/^refs\/heads\//, "")) ?? null),
      ),
    // The clone's view of GitHub's branches is GitHub's own: a fetch has nothing to do.
    fetch: () => Promise.resolve(true),
    isAncestor: (ancestor, of) =>
      Promise.resolve(
        contains(
          branches.get(of.replace(/^refs\/heads\//, "")) ?? of,
          ancestor,
        ),
      ),
    push: (remote, branch) => {
      const sha = branches.get(branch);
      const there = github.branches.get(branch);
      if (sha === undefined)
        return Promise.reject(
          new GitCommandError(
            ["push", remote, branch],
            `src refspec ${branch} does not match any`,
          ),
        );
      if (there === sha)
        return Promise.resolve({ status: "up-to-date" as const, summary: "" });
      // Without --force (which the port never uses), git refuses to drop commits the remote has and this clone lacks.
      if (there !== undefined && !contains(sha, there))
        return Promise.reject(
          new PushRejected(
            ["push", remote, branch],
            `! [rejected] ${branch} -> ${branch} (fetch first)`,
          ),
        );
      github.branches.set(branch, sha);
      return Promise.resolve({
        status: "pushed" as const,
        summary: `${there?.slice(0, 7) ?? "new"}..${sha.slice(0, 7)}`,
      });
    },
    status: notUsed("status"),
    addAll: notUsed("addAll"),
    commit: notUsed("commit"),
    remoteUrl: notUsed("remoteUrl"),
    refs: notUsed("refs"),
    deleteRemoteBranch: notUsed("deleteRemoteBranch"),
    move: notUsed("move"),
    existsAt: notUsed("existsAt"),
    switchTo: notUsed("switchTo"),
    switchDetached: notUsed("switchDetached"),
    pushCommit: notUsed("pushCommit"),
    updateRef: notUsed("updateRef"),
    mergeNoFf: notUsed("mergeNoFf"),
    mergeFfOnly: notUsed("mergeFfOnly"),
    abortMerge: notUsed("abortMerge"),
    localDefaultBranch: notUsed("localDefaultBranch"),
    // The fake's commits are names only: they add no file, so nothing for the secret scan before a push.
    additionsSince: () => Promise.resolve([]),
  };
  return {
    git,
    /** A commit on `branch` made here and not pushed; returns its sha. */
    commit(branch: string, sha: string): string {
      parents.set(sha, branches.get(branch) ?? null);
      branches.set(branch, sha);
      return sha;
    },
  };
}

interface World {
  github: GitHubFake;
  clone: ReturnType<typeof createClone>;
  ctx: StepContext;
  /** The waits the step asked for, in milliseconds; each moves the clock on and runs `onSleep`. */
  sleeps: number[];
}

/**
 * An archive of the GitHub provider, planned and pushed: `main` and the playbook's branch on GitHub and in the
 * clone, no pull request yet. The clock starts at a fixed time and moves only when the step sleeps.
 */
function world(
  archive: Partial<StepContext["config"]> = {},
  onSleep: (github: GitHubFake) => void = () => {},
): World {
  const github = new GitHubFake({
    branches: { main: BASE_SHA, [BRANCH]: WORK_SHA },
  });
  const clone = createClone(github);
  const sleeps: number[] = [];
  let now = Date.parse("2025-01-01T12:00:00Z");
  const journal: ArchiveJournal = {
    version: 1,
    id: "journal-1",
    playbook: "plan/playbook-login-form.md",
    archivePath: "plan/archive/playbook-login-form.md",
    branch: BRANCH,
    defaultBranch: "main",
    provider: "github",
    title: TITLE,
    body: "- [x] **p1.1**",
    session: null,
    startedAt: "2025-01-01T12:00:00Z",
    status: "running",
    pr: null,
    steps: {},
    next: null,
  };
  const unused = (name: string) => () => {
    throw new Error(`${name} is not used by the GitHub steps`);
  };
  const config = { ...defaultConfig().archive, ...archive };
  const ctx: StepContext = {
    root: "/nonexistent/the-github-steps-never-read-the-disk",
    journal,
    git: clone.git,
    github,
    remote: "origin",
    config,
    now: () => new Date(now),
    sleep: (ms) => {
      sleeps.push(ms);
      now += ms;
      onSleep(github);
      return Promise.resolve();
    },
    session: null,
    checkWaitSeconds: config.checkWaitSeconds,
    pollIntervalMs: 10_000,
    rerun: unused("rerun"),
    meter: createCostMeter(() => 0, clone.git, github),
    pullRequests: null,
    // The playbook cannot be read here: the body planned with the journal is used.
    readProof: () => null,
  };
  return { github, clone, ctx, sleeps };
}

const openPr = (ctx: StepContext) => ARCHIVE_STEP_DEFS["open-pr"].run(ctx);
const merge = (ctx: StepContext) => ARCHIVE_STEP_DEFS.merge.run(ctx);

/** The step's failure, or an error saying it did not fail as a StepFailure. */
async function failureOf(
  run: Promise<unknown>,
): Promise<{ message: string; next: string }> {
  const error = await run.then(
    () => new Error("the step succeeded"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StepFailure);
  const failure = error as StepFailure;
  return { message: failure.message, next: failure.next };
}

/** The world after open-pr: pull request #1 open for the branch and recorded in the journal. */
async function withOpenPullRequest(
  archive: Partial<StepContext["config"]> = {},
  onSleep?: (github: GitHubFake) => void,
): Promise<World> {
  const w = world(archive, onSleep);
  await openPr(w.ctx);
  expect(w.ctx.journal.pr).toEqual({ number: 1, url: PR_URL });
  return w;
}

describe("open-pr", () => {
  it("opens one pull request from the journal, and run again on resume finds it instead of opening a second", async () => {
    const { github, ctx } = world();
    expect(await openPr(ctx)).toEqual({
      status: "done",
      detail: `#1 ${PR_URL}`,
    });
    expect(github.callsTo("createPullRequest").map((c) => c.args)).toEqual([
      [{ title: TITLE, body: "- [x] **p1.1**", head: BRANCH, base: "main" }],
    ]);

    ctx.journal.pr = null;
    expect(await openPr(ctx)).toEqual({
      status: "done",
      detail: `#1 already open, its body updated (${PR_URL})`,
    });
    expect(ctx.journal.pr).toEqual({ number: 1, url: PR_URL });
    expect(github.callsTo("createPullRequest")).toHaveLength(1);
    expect(github.pulls.size).toBe(1);
  });

  it("writes the body from the playbook and its records as they are when the pull request opens, and brings it up to date on resume", async () => {
    const { github, ctx } = world();
    const playbook = playbookOf(REVIEWED);
    let records: PlaybookRecord[] = [];
    ctx.readProof = () => ({ playbook, records: createRecordSet(records) });
    ctx.journal.files = { committed: ["src/login-form.tsx"], leftAlone: [] };

    await openPr(ctx);
    const opened = github.pulls.get(1)?.body ?? "";
    expect(opened).toContain("Committed (1): `src/login-form.tsx`.");
    expect(opened).toContain("❌ No reviewer approved plan");
    expect(ctx.journal.body).toBe(opened);

    // Resumed after the reviewer's approval was recorded: the open pull request's body says so.
    records = [
      recordFor(playbook, {
        kind: "review",
        target: "playbook",
        verdict: "approve",
      }),
    ];
    await openPr(ctx);
    expect(github.callsTo("updatePullRequest")).toHaveLength(1);
    expect(github.pulls.get(1)?.body).toMatch(
      /✅ The reviewer \(`test`\) approved plan `[0-9a-f]{12}`/,
    );
  });

  it("recognises the pull request merged by a run that stopped before saving, and opens none", async () => {
    const { github, ctx } = world();
    github.addPullRequest({ head: BRANCH, title: TITLE });
    github.mergePullRequest(1);

    expect(await openPr(ctx)).toEqual({
      status: "skipped",
      detail: `#1 already merged (${PR_URL})`,
    });
    expect(ctx.journal.pr).toEqual({ number: 1, url: PR_URL });
    expect(github.callsTo("createPullRequest")).toEqual([]);
  });

  it("stops at a pull request closed by hand, neither reopening nor duplicating it, and says how to go on", async () => {
    const { github, ctx } = world();
    github.addPullRequest({ head: BRANCH, title: TITLE });
    github.closePullRequest(1);

    expect(await failureOf(openPr(ctx))).toEqual({
      message: `pull request #1 for \`${BRANCH}\` was closed without being merged (${PR_URL}).`,
      next: `reopen it on GitHub if the work should still be merged, ${RESUME}; playbook does not open a second one.`,
    });
    expect(ctx.journal.pr).toBeNull();
    expect(github.callsTo("createPullRequest")).toEqual([]);
    expect(github.pulls.get(1)?.state).toBe("closed");
  });
});

describe("merge, GitHub provider", () => {
  it("on resume, a pull request already merged is recognised and not merged twice", async () => {
    const { github, ctx } = await withOpenPullRequest();
    const mergedInto = github.mergePullRequest(1);

    expect(await merge(ctx)).toEqual({
      status: "skipped",
      detail: "#1 already merged",
    });
    expect(github.callsTo("merge")).toEqual([]);
    expect(github.branches.get("main")).toBe(mergedInto);
  });

  it("waits for pending checks, then merges the head commit with the configured method", async () => {
    const { github, ctx, sleeps } = await withOpenPullRequest(
      { mergeMethod: "squash" },
      (github) =>
        github.setChecks(WORK_SHA, [{ name: "ci", state: "success" }]),
    );
    github.setChecks(WORK_SHA, [{ name: "ci", state: "pending" }]);

    const outcome = await merge(ctx);

    expect(sleeps).toEqual([10_000]);
    expect(github.callsTo("merge").map((c) => c.args)).toEqual([
      [1, { sha: WORK_SHA, method: "squash", title: `${TITLE} (#1)` }],
    ]);
    const merged = github.pulls.get(1)?.merged;
    expect(merged).toMatchObject({ head: WORK_SHA, method: "squash" });
    expect(outcome).toEqual({
      status: "done",
      detail: `#1 merged with squash (${merged?.commit.slice(0, 7)})`,
    });
    expect(github.branches.get("main")).toBe(merged?.commit);
  });

  it.each<[string, FakeCheck[], number, string, string]>([
    [
      "a failed check",
      [
        { name: "lint", state: "success" },
        { name: "ci", state: "failure" },
      ],
      600,
      "checks failed on #1: ci.",
      `fix them on \`${BRANCH}\` and commit the fix (the archive pushes it), ${RESUME}.`,
    ],
    [
      "a check still running when the wait is over",
      [{ name: "ci", state: "pending" }],
      0,
      "checks are still running on #1 after 0 s: ci.",
      `wait for them (${PR_URL}), ${RESUME}.`,
    ],
  ])(
    "%s stops before merging, naming the check and the next step",
    async (_, checks, checkWaitSeconds, message, next) => {
      const { github, ctx, sleeps } = await withOpenPullRequest({
        checkWaitSeconds,
      });
      github.setChecks(WORK_SHA, checks);

      expect(await failureOf(merge(ctx))).toEqual({ message, next });
      expect(sleeps).toEqual([]);
      expect(github.callsTo("merge")).toEqual([]);
      expect(github.pulls.get(1)?.state).toBe("open");
    },
  );

  it.each([
    [
      "refuses it as not mergeable though the branch has all of main (405)",
      (github: GitHubFake) => github.markConflicting(1),
      "GitHub refused to merge #1: merging pull request #1 failed: GitHub answered 405: Pull Request is not mergeable.",
      `see ${PR_URL} (conflicts, branch protection or reviews), ${RESUME}.`,
    ],
    [
      "refuses it (branch protection, 405)",
      (github: GitHubFake) =>
        github.failNext(
          "merge",
          405,
          "At least 1 approving review is required by reviewers with write access.",
        ),
      "GitHub refused to merge #1: merging pull request #1 failed: GitHub answered 405: At least 1 approving review is required by reviewers with write access..",
      `see ${PR_URL} (conflicts, branch protection or reviews), ${RESUME}.`,
    ],
    [
      "answers that the head moved meanwhile (409)",
      (github: GitHubFake) =>
        github.failNext(
          "merge",
          409,
          "Head branch was modified. Review and try the merge again.",
        ),
      "the branch changed while merging #1.",
      `\`git pull origin ${BRANCH}\` on \`${BRANCH}\`, ${RESUME}.`,
    ],
  ])(
    "when GitHub %s, the archive stops with the pull request left open and the next step that fits",
    async (_, script, message, next) => {
      const { github, ctx } = await withOpenPullRequest();
      script(github);

      expect(await failureOf(merge(ctx))).toEqual({ message, next });
      expect(github.callsTo("merge")).toHaveLength(1);
      expect(github.pulls.get(1)?.state).toBe("open");
      expect(github.branches.get("main")).toBe(BASE_SHA);
    },
  );

  it("a fix committed here after the archive stopped is pushed, and the new head is what gets merged", async () => {
    const { github, clone, ctx } = await withOpenPullRequest();
    github.setChecks(WORK_SHA, [{ name: "ci", state: "failure" }]);
    const fix = clone.commit(BRANCH, "c".repeat(40));

    expect((await merge(ctx)).status).toBe("done");
    expect(github.branches.get(BRANCH)).toBe(fix);
    expect(github.callsTo("merge").map((c) => c.args[1])).toEqual([
      { sha: fix, method: "merge", title: `${TITLE} (#1)` },
    ]);
    expect(github.pulls.get(1)?.merged?.head).toBe(fix);
  });
});
