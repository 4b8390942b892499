import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitHubPort } from "../../src/adapters/github-port.ts";
import { createArchiveDeps } from "../../src/app/deps.ts";
import {
  runArchive,
  type ArchiveOptions,
} from "../../src/app/archive/run-archive.ts";
import { archiveFromHook } from "../../src/entries/archive-job.ts";
import { HOOK_BUNDLE } from "../helpers/run-hook.ts";
import { createFinishedRepo } from "../helpers/finished-repo.ts";
import { type GitHubServer } from "../../harness/github-server.ts";
import {
  GITHUB_TEST_TOKEN,
  useGitHubServers,
} from "../helpers/github-servers.ts";
import { type GuardedRepo } from "../helpers/guarded-repo.ts";
import { runCliAsync } from "../helpers/run-cli.ts";

// archive.merge (docs/archive.md#merge-policies) against the local GitHub server, which checks every REST call
// against GitHub's OpenAPI description and every GraphQL call against GitHub's schema, and against a bare remote.

/** The built package: the hook's archive runs `dist/job.cjs` and `dist/cli.mjs`. */
const DIST = dirname(HOOK_BUNDLE);
const ARCHIVED = "plan/archive/playbook-login-form.md";
const BRANCH = "feat/login-form";
const PR_URL = "https://github.com/acme/app/pull/1";
const RERUN_REQUIRED = {
  type: "required_status_checks",
  parameters: {
    strict_required_status_checks_policy: false,
    required_status_checks: [{ context: "playbook-rerun" }],
  },
};
const MERGE_QUEUE = {
  type: "merge_queue",
  parameters: {
    check_response_timeout_minutes: 60,
    grouping_strategy: "ALLGREEN",
    max_entries_to_build: 5,
    max_entries_to_merge: 5,
    merge_method: "SQUASH",
    min_entries_to_merge: 1,
    min_entries_to_merge_wait_minutes: 5,
  },
};

const startServer = useGitHubServers();

interface Setup {
  repo: GuardedRepo;
  server: GitHubServer;
  env: Record<string, string | undefined>;
}

async function setup(archive: Record<string, unknown>): Promise<Setup> {
  const repo = createFinishedRepo({
    files: {
      ".claude/playbook.json": JSON.stringify({
        archive: { repository: "acme/app", checkWaitSeconds: 0, ...archive },
      }),
    },
  });
  const server = await startServer(repo.remoteDir);
  return {
    repo,
    server,
    env: {
      GITHUB_TOKEN: GITHUB_TEST_TOKEN,
      GH_TOKEN: undefined,
      GITHUB_API_URL: server.url,
      CLAUDE_CODE_SESSION_ID: "session-1",
    },
  };
}

/**
 * The archive in this process, checks and reviews polled every 10 ms; `onPoll` runs at each wait (what happens on
 * GitHub meanwhile), `onStep` after each step.
 */
async function archiveIn(
  { repo, env }: Setup,
  options: Partial<ArchiveOptions> & { onPoll?: (poll: number) => void } = {},
) {
  const deps = createArchiveDeps(repo.dir, {
    ...env,
    PATH: process.env["PATH"],
  });
  let polls = 0;
  return runArchive(
    repo.dir,
    {
      dryRun: false,
      resume: false,
      provider: null,
      session: "session-1",
      ...options,
    },
    {
      ...deps,
      pollIntervalMs: 10,
      sleep: async (ms) => {
        options.onPoll?.(++polls);
        await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 10)));
      },
      createGitHub: (o) =>
        createGitHubPort({ ...o, retries: 0, throttle: false }),
    },
  );
}

const bare = (repo: GuardedRepo, ...args: string[]) =>
  execFileSync("git", args, { cwd: repo.remoteDir, encoding: "utf8" }).trim();
const head = (repo: GuardedRepo) => repo.git("rev-parse", BRANCH).trim();
const lockOf = (repo: GuardedRepo) =>
  JSON.parse(repo.read(".claude/playbook/post-loop.json")) as Record<
    string,
    unknown
  >;
const calls = (server: GitHubServer, method: string, pattern: RegExp) =>
  server.requests.filter((r) => r.method === method && pattern.test(r.path));
const graphql = (server: GitHubServer, operation: string) =>
  calls(server, "POST", /^\/graphql$/).filter((r) =>
    String((r.body as { query: string }).query).includes(operation),
  );
const mainHasWork = (repo: GuardedRepo) =>
  bare(repo, "ls-tree", "-r", "--name-only", "main").includes(
    "src/login-form.tsx",
  );
/** Checks start when the branch is pushed: set them on the head the reset-state step pushed. */
const checksAtReset =
  (setupped: Setup, state: "pending" | "success") =>
  (report: { id: string }) => {
    if (report.id === "reset-state")
      setupped.server.setChecks(head(setupped.repo), [
        { name: "playbook-rerun", state },
      ]);
  };

/** Everything playbook wrote under .claude/playbook/ (journal, lock, logs). */
function everythingWritten(repo: GuardedRepo): string {
  const runtime = repo.path(".claude/playbook");
  return readdirSync(runtime, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

async function statusText({ repo, env }: Setup): Promise<string> {
  const result = await runCliAsync(["status", "--cwd", repo.dir], { env });
  return result.stdout;
}

describe("archive.merge: open", () => {
  it("opens the pull request and stops; once a person merged it, --resume cleans up and sets the lock to success", async () => {
    const setupped = await setup({ merge: "open" });
    const { repo, server } = setupped;
    const first = await archiveIn(setupped);
    expect(first.status).toBe("pending");
    expect(first.steps.find((s) => s.id === "merge")?.detail).toBe(
      "pending: #1 is open for a person to review and merge",
    );
    expect(calls(server, "PUT", /merge$/)).toHaveLength(0);
    expect(mainHasWork(repo)).toBe(false);
    expect(bare(repo, "branch", "--list", BRANCH)).toContain(BRANCH);
    expect(lockOf(repo)).toMatchObject({
      status: "pending",
      playbook: ARCHIVED,
      pr: PR_URL,
      pending: {
        kind: "person",
        what: "#1 is open for a person to review and merge",
        next: `see it at ${PR_URL}; once it is merged, \`playbook archive --resume\` cleans up and sets the lock to success`,
      },
    });
    const status = await statusText(setupped);
    expect(status).toContain("status pending");
    expect(status).toContain(
      `pending: #1 is open for a person to review and merge. Next: see it at ${PR_URL}`,
    );

    // A person merges it on GitHub.
    const person = createGitHubPort({
      token: GITHUB_TEST_TOKEN,
      baseUrl: server.url,
      owner: "acme",
      repo: "app",
      retries: 0,
      throttle: false,
    });
    await person.merge(1, { sha: head(repo), method: "merge", title: "ok" });
    const resumed = await archiveIn(setupped, { resume: true });
    expect(resumed.status).toBe("success");
    expect(resumed.steps.find((s) => s.id === "merge")).toMatchObject({
      status: "skipped",
      detail: "#1 already merged",
    });
    expect(lockOf(repo)).toMatchObject({ status: "success", pending: null });
    expect(bare(repo, "branch", "--list", BRANCH)).toBe("");
    expect(repo.git("branch", "--show-current").trim()).toBe("main");
    expect(await statusText(setupped)).not.toContain("pending");
  });

  it("a person who lifted the lock and moved on to the next branch keeps it: --resume touches neither that branch nor the lock", async () => {
    const setupped = await setup({ merge: "open" });
    const { repo, server } = setupped;
    expect((await archiveIn(setupped)).status).toBe("pending");
    await runCliAsync(["post-loop", "--cwd", repo.dir], {
      env: setupped.env,
    });
    repo.git("switch", "--quiet", "-c", "feat/next");
    repo.write("state.md", `${repo.read("state.md")}\n<!-- next task -->\n`);
    const next = repo.git("rev-parse", "HEAD").trim();
    const person = createGitHubPort({
      token: GITHUB_TEST_TOKEN,
      baseUrl: server.url,
      owner: "acme",
      repo: "app",
      retries: 0,
      throttle: false,
    });
    await person.merge(1, { sha: head(repo), method: "merge", title: "ok" });
    const resumed = await archiveIn(setupped, { resume: true });
    expect(resumed.status).toBe("success");
    expect(resumed.steps.find((s) => s.id === "reset-state")).toMatchObject({
      status: "skipped",
      detail: "done before the merge was left pending",
    });
    expect(resumed.steps.find((s) => s.id === "cleanup")?.detail).toContain(
      "left on feat/next",
    );
    expect(resumed.steps.find((s) => s.id === "lock")?.detail).toBe(
      "the pending lock was lifted meanwhile (`playbook post-loop`): not set again",
    );
    expect(repo.git("branch", "--show-current").trim()).toBe("feat/next");
    expect(repo.git("rev-parse", "HEAD").trim()).toBe(next);
    expect(repo.read("state.md")).toContain("<!-- next task -->");
    expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(
      false,
    );
    expect(bare(repo, "branch", "--list", BRANCH)).toBe("");
  });
});

describe("archive.merge: on-approval", () => {
  it("waits for a person's approval (the token's own approval does not count), then merges that head", async () => {
    const setupped = await setup({
      merge: "on-approval",
      checkWaitSeconds: 600,
    });
    const { repo, server } = setupped;
    server.scriptReview(1, "playbook-bot", "APPROVED", 0);
    server.scriptReview(1, "ana", "APPROVED", 3);
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("success");
    expect(outcome.steps.find((s) => s.id === "merge")?.detail).toMatch(
      /^approved by ana; #1 merged with merge \([0-9a-f]{7}\)$/,
    );
    expect(
      calls(server, "GET", /\/pulls\/1\/reviews$/).length,
    ).toBeGreaterThanOrEqual(4);
    const merges = calls(server, "PUT", /\/pulls\/1\/merge$/);
    expect(merges).toHaveLength(1);
    expect((merges[0]?.body as { sha: string }).sha).toBe(
      bare(repo, "rev-parse", "main^2"),
    );
    expect(mainHasWork(repo)).toBe(true);
    expect(lockOf(repo)).toMatchObject({ status: "success" });
  });

  it("without an approval in time the merge is pending; --resume merges once a person approved", async () => {
    const setupped = await setup({ merge: "on-approval" });
    const { repo, server } = setupped;
    const first = await archiveIn(setupped);
    expect(first.status).toBe("pending");
    expect(calls(server, "PUT", /merge$/)).toHaveLength(0);
    expect(mainHasWork(repo)).toBe(false);
    expect(lockOf(repo)).toMatchObject({
      status: "pending",
      pending: {
        kind: "approval",
        what: "#1 waits for a person's approving review",
        next: `see it at ${PR_URL}; once a person approved it, \`playbook archive --resume\` merges it`,
      },
    });
    expect(await statusText(setupped)).toContain(
      "pending: #1 waits for a person's approving review",
    );
    // Still nobody: resuming changes nothing.
    expect((await archiveIn(setupped, { resume: true })).status).toBe(
      "pending",
    );
    server.scriptReview(1, "ana", "APPROVED");
    const resumed = await archiveIn(setupped, { resume: true });
    expect(resumed.status).toBe("success");
    expect(mainHasWork(repo)).toBe(true);
    expect(lockOf(repo)).toMatchObject({ status: "success", pending: null });
    expect(repo.git("branch", "--show-current").trim()).toBe("main");
  });

  it("a later 'changes requested' undoes the approval: the archive stops for a fix and merges nothing", async () => {
    const setupped = await setup({ merge: "on-approval" });
    const { repo, server } = setupped;
    server.scriptReview(1, "ana", "APPROVED");
    server.scriptReview(1, "ana", "CHANGES_REQUESTED");
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("partial");
    expect(outcome.steps.at(-1)).toMatchObject({
      id: "merge",
      status: "failed",
      detail: `ana requested changes on #1 (${PR_URL}).`,
    });
    expect(outcome.next).toContain("address the review");
    expect(calls(server, "PUT", /merge$/)).toHaveLength(0);
    expect(mainHasWork(repo)).toBe(false);
  });
});

describe("archive.merge: auto-when-green", () => {
  it("refuses when no ruleset requires the re-proof, before asking GitHub to merge", async () => {
    const setupped = await setup({ merge: "auto-when-green" });
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("partial");
    expect(outcome.steps.at(-1)?.detail).toBe(
      "archive.merge is auto-when-green, and no ruleset of main requires the check playbook-rerun: GitHub would merge #1 without the re-proof.",
    );
    expect(graphql(setupped.server, "enablePullRequestAutoMerge")).toEqual([]);
    expect(mainHasWork(setupped.repo)).toBe(false);
  });

  it("turns GitHub's auto-merge on with the merge method; GitHub merges once the checks pass, and --resume converges", async () => {
    const setupped = await setup({
      merge: "auto-when-green",
      mergeMethod: "squash",
    });
    const { repo, server } = setupped;
    server.setBranchRules("main", [RERUN_REQUIRED]);
    const first = await archiveIn(setupped, {
      onProgress: checksAtReset(setupped, "pending"),
    });
    expect(first.status).toBe("pending");
    const enabled = graphql(server, "enablePullRequestAutoMerge");
    expect(enabled).toHaveLength(1);
    const variables = (enabled[0]?.body as { variables: { id: unknown } })
      .variables;
    expect(variables).toEqual({
      id: variables.id,
      head: head(repo),
      mergeMethod: "SQUASH",
    });
    expect(typeof variables.id).toBe("string");
    expect(server.mergeRequest(1)).toBe("auto-merge");
    expect(calls(server, "PUT", /merge$/)).toHaveLength(0);
    expect(lockOf(repo)).toMatchObject({
      status: "pending",
      pending: {
        kind: "auto-merge",
        what: "GitHub's auto-merge is on for #1: GitHub merges it once its required checks pass",
      },
    });
    expect(await statusText(setupped)).toContain(
      "pending: GitHub's auto-merge is on for #1",
    );

    server.setChecks(head(repo), [
      { name: "playbook-rerun", state: "success" },
    ]);
    const resumed = await archiveIn(setupped, { resume: true });
    expect(resumed.status).toBe("success");
    // Squashed by GitHub: one parent, the work on main; the archive itself never merged.
    expect(
      bare(repo, "rev-list", "--parents", "-n1", "main").split(" "),
    ).toHaveLength(2);
    expect(mainHasWork(repo)).toBe(true);
    expect(calls(server, "PUT", /merge$/)).toHaveLength(0);
    expect(graphql(server, "enablePullRequestAutoMerge")).toHaveLength(1);
    expect(lockOf(repo)).toMatchObject({ status: "success", pending: null });
    expect(bare(repo, "branch", "--list", BRANCH)).toBe("");
    expect(everythingWritten(repo)).not.toContain(GITHUB_TEST_TOKEN);
  });

  it("--dry-run says who merges under the policy", async () => {
    const setupped = await setup({ merge: "auto-when-green" });
    const planned = await archiveIn(setupped, { dryRun: true });
    expect(planned.steps.find((s) => s.id === "merge")?.detail).toBe(
      "hand the pull request to GitHub: main's merge queue if it has one, else auto-merge (playbook-rerun must be required)",
    );
    expect(setupped.server.requests.some((r) => r.method !== "GET")).toBe(
      false,
    );
  });

  it("uses the base branch's merge queue when a ruleset has one, and waits for the queue to merge", async () => {
    const setupped = await setup({
      merge: "auto-when-green",
      checkWaitSeconds: 600,
    });
    const { repo, server } = setupped;
    server.setBranchRules("main", [RERUN_REQUIRED, MERGE_QUEUE]);
    const outcome = await archiveIn(setupped, {
      onProgress: checksAtReset(setupped, "pending"),
      onPoll: (poll) => {
        if (poll === 2)
          server.setChecks(head(repo), [
            { name: "playbook-rerun", state: "success" },
          ]);
      },
    });
    expect(outcome.status).toBe("success");
    expect(outcome.steps.find((s) => s.id === "merge")?.detail).toBe(
      "#1 merged by GitHub's merge queue",
    );
    expect(graphql(server, "enqueuePullRequest")).toHaveLength(1);
    expect(graphql(server, "enablePullRequestAutoMerge")).toEqual([]);
    expect(calls(server, "PUT", /merge$/)).toHaveLength(0);
    // The queue's rule squashes.
    expect(
      bare(repo, "rev-list", "--parents", "-n1", "main").split(" "),
    ).toHaveLength(2);
    expect(lockOf(repo)).toMatchObject({ status: "success" });
  });

  it("merges through the API when GitHub says the pull request is already green (auto-merge cannot wait)", async () => {
    const setupped = await setup({ merge: "auto-when-green" });
    const { repo, server } = setupped;
    server.setBranchRules("main", [RERUN_REQUIRED]);
    const outcome = await archiveIn(setupped, {
      onProgress: checksAtReset(setupped, "success"),
    });
    expect(outcome.status).toBe("success");
    expect(outcome.steps.find((s) => s.id === "merge")?.detail).toMatch(
      /^GitHub says #1 can be merged now \(its required checks passed\), so auto-merge cannot wait for them: #1 merged with merge/,
    );
    const merges = calls(server, "PUT", /merge$/);
    expect((merges[0]?.body as { sha: string }).sha).toBe(
      bare(repo, "rev-parse", "main^2"),
    );
  });
});

describe("archive.merge with the local provider (no pull requests)", () => {
  it.each(["open", "on-approval"])(
    "%s: pushes the branch and leaves the merge to a person; --resume cleans up after it",
    async (merge) => {
      const repo = createFinishedRepo({
        files: {
          ".claude/playbook.json": JSON.stringify({
            archive: { provider: "local", merge },
          }),
        },
      });
      const setupped = { repo, env: {} } as unknown as Setup;
      const first = await runCliAsync(["archive", "--cwd", repo.dir]);
      expect(first.stderr).toBe("");
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(
        /✓ merge\s+pending: feat\/login-form is pushed to origin and not merged/,
      );
      expect(first.stdout).toMatch(/✓ cleanup\s+not merged yet/);
      expect(first.stdout).toContain(
        `pending: ${BRANCH} is pushed to origin and not merged: a person merges it into main. Next: review it, merge it`,
      );
      expect(mainHasWork(repo)).toBe(false);
      expect(bare(repo, "rev-parse", BRANCH)).toBe(head(repo));
      expect(lockOf(repo)).toMatchObject({
        status: "pending",
        pr: null,
        pending: {
          kind: "person",
          what: `${BRANCH} is pushed to origin and not merged: a person merges it into main`,
          next: `review it, merge it (\`git switch main && git merge --no-ff ${BRANCH} && git push origin main\`), then \`playbook archive --resume\` cleans up and sets the lock to success`,
        },
      });
      expect(await statusText(setupped)).toContain(
        `pending: ${BRANCH} is pushed to origin and not merged`,
      );
      // The lock lifted to start the next task meanwhile: status still shows the pending merge, and a new archive
      // refuses until it is finished.
      const lifted = await runCliAsync(["post-loop", "--cwd", repo.dir]);
      expect(lifted.stdout).toContain(
        `The merge of plan/playbook-login-form.md is pending: ${BRANCH} is pushed to origin and not merged`,
      );
      await expect(archiveIn(setupped)).rejects.toThrow(
        `The archive of plan/playbook-login-form.md waits for its merge: ${BRANCH} is pushed to origin and not merged`,
      );
      const status = await statusText(setupped);
      expect(status).not.toContain("post-loop lock");
      expect(status).toContain(
        `merge     pending: ${BRANCH} is pushed to origin and not merged`,
      );
      // The person does what the lock says.
      repo.git("switch", "--quiet", "main");
      repo.git("merge", "--quiet", "--no-ff", "-m", "merge", BRANCH);
      repo.git("push", "--quiet", "origin", "main");
      const resumed = await archiveIn(setupped, { resume: true });
      expect(resumed.status).toBe("success");
      expect(mainHasWork(repo)).toBe(true);
      expect(bare(repo, "branch", "--list", BRANCH)).toBe("");
      // The lock was lifted while the merge was pending: not set again.
      expect(existsSync(repo.path(".claude/playbook/post-loop.json"))).toBe(
        false,
      );
      expect(await statusText(setupped)).not.toContain("pending");
    },
  );

  it("the hook's archive tells the agent what is pending and what comes next, and says so again instead of starting another", async () => {
    const repo = createFinishedRepo({
      files: {
        ".claude/playbook.json": JSON.stringify({
          archive: { provider: "local", merge: "open" },
        }),
      },
    });
    const first = await archiveFromHook(repo.dir, "session-1", DIST);
    expect(first.headline).toBe(
      `playbook archived plan/playbook-login-form.md → ${ARCHIVED}; the merge is pending: ${BRANCH} is pushed to origin and not merged: a person merges it into main. The post-loop lock is set (pending). Next: review it, merge it (\`git switch main && git merge --no-ff ${BRANCH} && git push origin main\`), then \`playbook archive --resume\` cleans up and sets the lock to success. Tell the user; /post-loop (\`playbook post-loop\`) lifts the lock to pick the next task meanwhile.`,
    );
    const again = await archiveFromHook(repo.dir, "session-1", DIST);
    expect(again.headline).toBe(
      `The archive of plan/playbook-login-form.md waits for its merge: ${BRANCH} is pushed to origin and not merged: a person merges it into main. Next: review it, merge it (\`git switch main && git merge --no-ff ${BRANCH} && git push origin main\`), then \`playbook archive --resume\` cleans up and sets the lock to success.`,
    );
    expect(mainHasWork(repo)).toBe(false);
  });
});
