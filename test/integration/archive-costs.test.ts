import { describe, expect, it } from "vitest";
import {
  GITHUB_TEST_TOKEN,
  useGitHubServers,
} from "../helpers/github-servers.ts";
import { createGitHubPort } from "../../src/adapters/github-port.ts";
import { createArchiveDeps } from "../../src/app/deps.ts";
import {
  runArchive,
  type ArchiveCosts,
} from "../../src/app/archive/run-archive.ts";
import { createFinishedRepo } from "../helpers/finished-repo.ts";

// What an archive reports it cost (the benchmark's breakdown): every git process of the port and every request is
// counted in the plan or in its step, and the safety checks are counted apart. The counts are exact; times are
// never asserted.

const TOKEN = GITHUB_TEST_TOKEN;

const startServer = useGitHubServers();

const count = (
  costs: ArchiveCosts,
  of: "gitProcesses" | "requests",
): Record<string, number> => ({
  plan: costs.plan[of],
  ...Object.fromEntries(
    Object.entries(costs.steps).map(([id, cost]) => [id, cost[of]]),
  ),
});

const checks = (costs: ArchiveCosts) =>
  Object.fromEntries(
    Object.entries(costs.checks).map(([id, cost]) => [
      id,
      {
        gitProcesses: cost.gitProcesses,
        requests: cost.requests,
        runs: cost.runs,
      },
    ]),
  );

describe("the costs an archive reports", () => {
  it("local provider: 25 git processes, each check's share, and a journal write per step that changed something", async () => {
    const repo = createFinishedRepo();
    const outcome = await runArchive(
      repo.dir,
      { dryRun: false, resume: false, provider: "local", session: "s1" },
      createArchiveDeps(repo.dir, { PATH: process.env["PATH"] }),
    );
    expect(outcome.status, outcome.next ?? "").toBe("success");
    const costs = outcome.costs!;
    expect(count(costs, "gitProcesses")).toEqual({
      // `remote get-url`, the default branch (for-each-ref)
      plan: 2,
      // status, add, commit
      commit: 3,
      // log -p of the branch's commits (the secret scan), push
      push: 2,
      "open-pr": 0,
      "archive-playbook": 1,
      // status, add, commit, push
      "reset-state": 4,
      // fetch, for-each-ref, merge-base, status, switch, merge, rev-parse, push, update-ref
      merge: 9,
      // push --delete, status, for-each-ref, switch
      cleanup: 4,
      lock: 0,
    });
    expect(costs.total.gitProcesses).toBe(25);
    expect(outcome.gitProcesses).toBe(25);
    expect(costs.total.requests).toBe(0);
    expect(checks(costs)).toEqual({
      readiness: { gitProcesses: 0, requests: 0, runs: 1 },
      secrets: { gitProcesses: 0, requests: 0, runs: 1 },
      "branch-secrets": { gitProcesses: 1, requests: 0, runs: 1 },
      conflicts: { gitProcesses: 1, requests: 0, runs: 1 },
      "clean-tree": { gitProcesses: 1, requests: 0, runs: 1 },
      fetch: { gitProcesses: 1, requests: 0, runs: 1 },
      // The plan, each step but open-pr (skipped: nothing to record) and lock (recorded with the outcome), the outcome.
      journal: { gitProcesses: 0, requests: 0, runs: 8 },
    });
  });

  it("GitHub provider: 8 requests, the pull request read before merging, and 18 git processes", async () => {
    const repo = createFinishedRepo({
      files: {
        ".claude/playbook.json": JSON.stringify({
          archive: { repository: "acme/app", checkWaitSeconds: 0 },
        }),
      },
    });
    const server = await startServer(repo.remoteDir);
    const deps = createArchiveDeps(repo.dir, {
      PATH: process.env["PATH"],
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: server.url,
    });
    const outcome = await runArchive(
      repo.dir,
      { dryRun: false, resume: false, provider: null, session: "s1" },
      {
        ...deps,
        pollIntervalMs: 10,
        createGitHub: (o) =>
          createGitHubPort({ ...o, retries: 0, throttle: false }),
      },
    );
    expect(outcome.status, outcome.next ?? "").toBe("success");
    const costs = outcome.costs!;
    const requests = count(costs, "requests");
    // The repository and the branch's pull requests are asked for while the playbook is parsed; the second may
    // still be on its way when the plan ends.
    expect(
      (requests["plan"] ?? 0) +
        (requests["commit"] ?? 0) +
        (requests["push"] ?? 0),
    ).toBe(2);
    expect(requests).toMatchObject({
      "open-pr": 1,
      "archive-playbook": 0,
      "reset-state": 0,
      // the pull request, its statuses and check runs, the merge
      merge: 4,
      // the branch's deletion
      cleanup: 1,
      lock: 0,
    });
    expect(costs.total.requests).toBe(8);
    expect(count(costs, "gitProcesses")).toEqual({
      plan: 1,
      commit: 3,
      // log -p of the branch's commits (the secret scan), push
      push: 2,
      "open-pr": 0,
      "archive-playbook": 1,
      "reset-state": 4,
      // rev-parse of the branch
      merge: 1,
      // fetch, for-each-ref, status, merge-base, update-ref, switch
      cleanup: 6,
      lock: 0,
    });
    expect(checks(costs)["pull-request"]).toEqual({
      gitProcesses: 1,
      requests: 3,
      runs: 1,
    });
  });
});
