import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  GITHUB_TEST_TOKEN,
  useGitHubServers,
} from "../helpers/github-servers.ts";
import { createGitHubPort } from "../../src/adapters/github-port.ts";
import { createArchiveDeps } from "../../src/app/deps.ts";
import {
  runArchive,
  type ArchiveOptions,
} from "../../src/app/archive/run-archive.ts";
import { ARCHIVE_STEPS } from "../../src/core/archive/journal.ts";
import {
  createFinishedRepo,
  pushConflictingStateToMain,
  pushConflictingWorkToMain,
} from "../helpers/finished-repo.ts";
import { type GitHubServer } from "../../harness/github-server.ts";
import { PLAYBOOK, type GuardedRepo } from "../helpers/guarded-repo.ts";
import { createTempProject } from "../helpers/temp-project.ts";
import { runCliAsync } from "../helpers/run-cli.ts";

const TOKEN = GITHUB_TEST_TOKEN;
const ARCHIVED = "plan/archive/playbook-login-form.md";

const startServer = useGitHubServers();

interface Setup {
  repo: GuardedRepo;
  server: GitHubServer;
  env: Record<string, string | undefined>;
}

/** A finished playbook's repository whose `origin` is served by the local GitHub as acme/app. */
async function setup(archive: Record<string, unknown> = {}): Promise<Setup> {
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
      GITHUB_TOKEN: TOKEN,
      GH_TOKEN: undefined,
      GITHUB_API_URL: server.url,
      CLAUDE_CODE_SESSION_ID: "session-1",
    },
  };
}

function cli({ repo, env }: Setup, ...args: string[]) {
  return runCliAsync(["archive", "--cwd", repo.dir, ...args], { env });
}

/** The archive in this process, with Octokit's retries off and checks polled every 10 ms. */
async function archiveIn(
  { repo, env }: Setup,
  options: Partial<ArchiveOptions> = {},
) {
  const deps = createArchiveDeps(repo.dir, {
    ...env,
    PATH: process.env["PATH"],
  });
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
      createGitHub: (o) =>
        createGitHubPort({ ...o, retries: 0, throttle: false }),
    },
  );
}

const bare = (repo: GuardedRepo, ...args: string[]) =>
  execFileSync("git", args, { cwd: repo.remoteDir, encoding: "utf8" }).trim();

const calls = (server: GitHubServer, method: string, pattern: RegExp) =>
  server.requests.filter((r) => r.method === method && pattern.test(r.path));

/** Everything playbook wrote that a user or a log collector could see. */
function everythingWritten(repo: GuardedRepo, outputs: string[]): string {
  const runtime = repo.path(".claude/playbook");
  const files = readdirSync(runtime, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
  return [...outputs, ...files].join("\n");
}

describe("playbook archive, GitHub provider", () => {
  it("opens the pull request, merges it with the head sha, deletes the branch and lands on the merged main", async () => {
    const setupped = await setup();
    const { repo, server } = setupped;
    const result = await cli(setupped);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /✓ open-pr\s+#1 https:\/\/github.com\/acme\/app\/pull\/1/,
    );
    expect(result.stdout).toMatch(/✓ merge\s+#1 merged with merge/);
    expect(result.stdout).toContain(
      "archived plan/playbook-login-form.md → plan/archive/playbook-login-form.md, https://github.com/acme/app/pull/1.",
    );

    const created = calls(server, "POST", /\/pulls$/);
    expect(created).toHaveLength(1);
    expect(created[0]?.body).toMatchObject({
      title: "Users can log in with email and password",
      head: "feat/login-form",
      base: "main",
    });
    expect(String((created[0]?.body as { body: string }).body)).toContain(
      "| ☑ **p1.1** |",
    );
    const merges = calls(server, "PUT", /\/pulls\/1\/merge$/);
    expect(merges).toHaveLength(1);
    expect(merges[0]?.status).toBe(200);
    expect((merges[0]?.body as { sha: string }).sha).toBe(
      repo.git("rev-parse", "feat/login-form").trim(),
    );
    expect(
      calls(server, "DELETE", /\/git\/refs\/heads\/feat\/login-form$/)[0]
        ?.status,
    ).toBe(204);

    // A real merge commit on the remote's main, with the work, the archived playbook and the reset state.
    expect(
      bare(repo, "rev-list", "--parents", "-n1", "main").split(" "),
    ).toHaveLength(3);
    expect(bare(repo, "show", "main:src/login-form.tsx")).toContain(
      "LoginForm",
    );
    expect(bare(repo, "show", "main:state.md")).toContain(
      `last_archived: ${ARCHIVED}`,
    );
    expect(bare(repo, "branch", "--list", "feat/login-form")).toBe("");
    expect(repo.git("branch", "--show-current").trim()).toBe("main");
    expect(repo.git("rev-parse", "HEAD").trim()).toBe(
      bare(repo, "rev-parse", "main"),
    );
    expect(
      JSON.parse(repo.read(".claude/playbook/post-loop.json")),
    ).toMatchObject({
      status: "success",
      playbook: ARCHIVED,
      pr: "https://github.com/acme/app/pull/1",
      session: "session-1",
    });
    expect(
      everythingWritten(repo, [result.stdout, result.stderr]),
    ).not.toContain(TOKEN);
  });

  it.each([
    ["squash", 2],
    ["rebase", 2],
  ] as const)("merges with %s when configured", async (method, parents) => {
    const setupped = await setup({ mergeMethod: method });
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("success");
    expect(
      bare(setupped.repo, "rev-list", "--parents", "-n1", "main").split(" "),
    ).toHaveLength(parents);
    expect(
      (
        calls(setupped.server, "PUT", /merge$/)[0]?.body as {
          merge_method: string;
        }
      ).merge_method,
    ).toBe(method);
  });

  it.each(ARCHIVE_STEPS.map((step) => [step]))(
    "killed right after %s and resumed: one pull request, one merge, the same end",
    async (step) => {
      const setupped = await setup();
      const { repo, server } = setupped;
      await expect(
        archiveIn(setupped, {
          onProgress: (report) => {
            if (report.id === step) throw new Error(`killed after ${step}`);
          },
        }),
      ).rejects.toThrow(`killed after ${step}`);
      const resumed = await archiveIn(setupped, { resume: true });
      expect(resumed.status, resumed.next ?? "").toBe("success");
      expect(
        calls(server, "POST", /\/pulls$/).filter((r) => r.status === 201),
      ).toHaveLength(1);
      expect(
        calls(server, "PUT", /merge$/).filter((r) => r.status === 200),
      ).toHaveLength(1);
      expect(
        bare(repo, "ls-tree", "--name-only", "main", "plan/archive/"),
      ).toBe(ARCHIVED);
      expect(bare(repo, "rev-list", "--merges", "--count", "main")).toBe("1");
      expect(bare(repo, "show", "main:src/login-form.tsx")).toContain(
        "LoginForm",
      );
      expect(repo.git("branch", "--show-current").trim()).toBe("main");
      expect(repo.git("status", "--porcelain").trim()).toBe("");
    },
  );
});

describe("the GitHub provider stops cleanly, losing nothing", () => {
  it("waits for pending checks, stops when they fail, and merges once they pass", async () => {
    const setupped = await setup({ checkWaitSeconds: 0 });
    const { repo, server } = setupped;
    const head = () => repo.git("rev-parse", "feat/login-form").trim();
    // The checks start when the branch is pushed: fake that by setting them on every push the archive makes.
    const first = await archiveIn(setupped, {
      onProgress: (report) => {
        if (report.id === "reset-state")
          server.setChecks(head(), [{ name: "build", state: "pending" }]);
      },
    });
    expect(first.status).toBe("partial");
    expect(first.steps.at(-1)).toMatchObject({ id: "merge", status: "failed" });
    expect(first.next).toContain(
      "wait for them (https://github.com/acme/app/pull/1)",
    );
    server.setChecks(head(), [
      { name: "build", state: "failure" },
      { name: "lint", state: "success" },
    ]);
    const failed = await archiveIn(setupped, { resume: true });
    expect(failed.steps.at(-1)?.detail).toBe("checks failed on #1: build.");
    expect(failed.next).toBe(
      "fix them on `feat/login-form` and commit the fix (the archive pushes it), then run `playbook archive --resume`.",
    );
    expect(calls(server, "PUT", /merge$/)).toHaveLength(0);
    // The fix is committed on the branch, not pushed: the resume pushes it and merges it.
    repo.write(
      "src/login-form.tsx",
      "export const LoginForm = () => 'fixed';\n",
    );
    repo.git("commit", "--quiet", "-am", "fix the build");
    server.setChecks(head(), [{ name: "build", state: "success" }]);
    const merged = await archiveIn(setupped, { resume: true });
    expect(merged.status).toBe("success");
    expect(calls(server, "POST", /\/pulls$/)).toHaveLength(1);
    expect(
      execFileSync("git", ["show", "main:src/login-form.tsx"], {
        cwd: repo.remoteDir,
        encoding: "utf8",
      }),
    ).toContain("fixed");
  });

  it("a pull request closed by hand is not reopened or duplicated", async () => {
    const setupped = await setup();
    const { repo, server } = setupped;
    server.setChecks("0".repeat(40), []);
    const stopped = await archiveIn(setupped, {
      onProgress: (report) => {
        if (report.id === "reset-state")
          server.setChecks(repo.git("rev-parse", "feat/login-form").trim(), [
            { name: "ci", state: "pending" },
          ]);
      },
    });
    expect(stopped.status).toBe("partial");
    server.closePullRequest(1);
    const closed = await archiveIn(setupped, { resume: true });
    expect(closed.status).toBe("partial");
    expect(closed.steps.at(-1)?.detail).toBe(
      "pull request #1 for `feat/login-form` was closed without being merged (https://github.com/acme/app/pull/1).",
    );
    expect(closed.next).toContain("reopen it on GitHub");
    expect(calls(server, "POST", /\/pulls$/)).toHaveLength(1);
    expect(bare(repo, "rev-parse", "feat/login-form")).toBe(
      repo.git("rev-parse", "feat/login-form").trim(),
    );
  });

  it("without a token, an explicit GitHub provider refuses before changing anything", async () => {
    const setupped = await setup({ provider: "github" });
    const head = setupped.repo.git("rev-parse", "HEAD");
    const result = await runCliAsync(["archive", "--cwd", setupped.repo.dir], {
      env: {
        ...setupped.env,
        GITHUB_TOKEN: undefined,
        GH_TOKEN: undefined,
        PATH: "/usr/bin:/bin",
      },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      "archive.provider is github, but no token was found. Set GITHUB_TOKEN or GH_TOKEN, or run `gh auth login`.",
    );
    expect(setupped.repo.git("rev-parse", "HEAD")).toBe(head);
    expect(setupped.server.requests).toEqual([]);
  });

  it("a refused token is reported without ever showing it", async () => {
    const setupped = await setup();
    const wrong = "ghp_wrongtoken9876543210zyxwvutsrqponmlkj";
    const result = await runCliAsync(["archive", "--cwd", setupped.repo.dir], {
      env: { ...setupped.env, GITHUB_TOKEN: wrong },
    });
    expect(result.status).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain(
      "the token was refused (401)",
    );
    expect(
      everythingWritten(setupped.repo, [result.stdout, result.stderr]),
    ).not.toContain(wrong);
  });

  it("a detached HEAD stops the archive at the commit, with the command that fixes it", async () => {
    const setupped = await setup();
    setupped.repo.git("checkout", "--quiet", "--detach");
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("partial");
    expect(outcome.steps.at(-1)).toMatchObject({
      id: "commit",
      status: "failed",
      detail: "HEAD is detached, so there is no branch to commit on.",
    });
    expect(outcome.next).toBe(
      "`git switch feat/login-form`, then run `playbook archive --resume`.",
    );
    expect(setupped.repo.read("src/login-form.tsx")).toContain("LoginForm");
  });

  it("uncommitted work on the default branch is left where it is", async () => {
    const setupped = await setup();
    const { repo } = setupped;
    repo.git("stash", "--include-untracked", "--quiet");
    repo.git("switch", "--quiet", "main");
    repo.git("stash", "pop", "--quiet");
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("partial");
    expect(outcome.steps.at(-1)?.detail).toBe(
      "git is on `main`, not on the playbook's branch `feat/login-form` and 1 files have uncommitted changes.",
    );
    expect(repo.git("status", "--porcelain").trim()).toBe(
      "?? src/login-form.tsx",
    );
    expect(calls(setupped.server, "POST", /\/pulls$/)).toHaveLength(0);
  });

  it("a remote branch with commits this clone lacks is never force-pushed", async () => {
    const setupped = await setup();
    const { repo } = setupped;
    const other = createTempProject();
    execFileSync("git", ["clone", "--quiet", repo.remoteDir, other.dir]);
    const inOther = (...args: string[]) =>
      execFileSync(
        "git",
        ["-c", "user.name=o", "-c", "user.email=o@e.x", ...args],
        { cwd: other.dir, encoding: "utf8" },
      );
    inOther("switch", "--quiet", "-c", "feat/login-form");
    other.write("OTHER.md", "someone else's work\n");
    inOther("add", "OTHER.md");
    inOther("commit", "--quiet", "-m", "other");
    inOther("push", "--quiet", "origin", "feat/login-form");
    const theirs = bare(repo, "rev-parse", "feat/login-form");
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("partial");
    expect(outcome.steps.at(-1)).toMatchObject({
      id: "push",
      detail:
        "origin/feat/login-form has commits this clone does not have, and playbook never force-pushes.",
    });
    expect(bare(repo, "rev-parse", "feat/login-form")).toBe(theirs);
    expect(repo.read(PLAYBOOK)).toContain("- [x] **ft1**");
  });

  it("a rate limit stops the archive with when to try again, and the resume finishes it", async () => {
    const setupped = await setup();
    const { server } = setupped;
    const reset = Math.floor(Date.now() / 1000) + 3600;
    server.failNext(
      "PUT /repos/acme/app/pulls/*/merge",
      403,
      { message: "API rate limit exceeded for user ID 1." },
      {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
      },
    );
    const limited = await archiveIn(setupped);
    expect(limited.status).toBe("partial");
    expect(limited.steps.at(-1)?.detail).toContain(
      `GitHub's rate limit was reached (API rate limit exceeded for user ID 1.); try again after ${new Date(reset * 1000).toISOString().slice(11, 16)} UTC`,
    );
    expect(limited.next).toContain("playbook archive --resume");
    const resumed = await archiveIn(setupped, { resume: true });
    expect(resumed.status).toBe("success");
    expect(
      calls(server, "PUT", /merge$/).filter((r) => r.status === 200),
    ).toHaveLength(1);
  });

  it("a branch deletion GitHub refuses leaves the work merged and this clone on the merged main, with status partial", async () => {
    const setupped = await setup();
    const { repo, server } = setupped;
    server.failNext(
      "DELETE /repos/acme/app/git/refs/heads/feat/login-form",
      403,
      {
        message: "Resource not accessible by integration",
      },
    );
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("partial");
    const cleanup = outcome.steps.find((s) => s.id === "cleanup");
    expect(cleanup?.status).toBe("failed");
    expect(cleanup?.detail).toContain("deleting the branch feat/login-form");
    // The deletion and the move to main run side by side: the refusal of one does not hold back the other.
    expect(repo.git("branch", "--show-current").trim()).toBe("main");
    expect(repo.git("rev-parse", "HEAD").trim()).toBe(
      bare(repo, "rev-parse", "main"),
    );
    expect(
      JSON.parse(repo.read(".claude/playbook/post-loop.json")),
    ).toMatchObject({ status: "partial", playbook: ARCHIVED });
  });

  it("a local main with a commit the remote lacks is never moved: cleanup stops, the work merged, with the command to reconcile", async () => {
    const setupped = await setup();
    const { repo } = setupped;
    const branch = repo.git("branch", "--show-current").trim();
    repo.git("switch", "--quiet", "main");
    repo.git("commit", "--quiet", "--allow-empty", "-m", "local only");
    const local = repo.git("rev-parse", "HEAD").trim();
    repo.git("switch", "--quiet", branch);
    const outcome = await archiveIn(setupped);
    expect(outcome.status).toBe("partial");
    expect(outcome.steps.find((s) => s.id === "merge")?.status).toBe("done");
    expect(outcome.steps.find((s) => s.id === "cleanup")).toMatchObject({
      status: "failed",
      detail:
        "main and origin/main have diverged, and playbook never discards commits.",
    });
    expect(repo.git("rev-parse", "main").trim()).toBe(local);
    expect(repo.git("branch", "--show-current").trim()).toBe(branch);
  });

  it("a repository GitHub does not show this token is refused before anything changes", async () => {
    const setupped = await setup();
    const { repo, server } = setupped;
    const head = repo.git("rev-parse", "HEAD");
    server.failNext("GET /repos/acme/app", 404, {
      message: "Not Found",
      documentation_url:
        "https://docs.github.com/rest/repos/repos#get-a-repository",
    });
    const result = await cli(setupped);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      "GitHub answered 404 (Not Found): the repository does not exist or the token cannot see it; check archive.repository and the token's access",
    );
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
    expect(repo.read("src/login-form.tsx")).toContain("LoginForm");
    expect(`${result.stdout}${result.stderr}`).not.toContain(TOKEN);
  });

  it.each([
    [
      403,
      "Resource not accessible by personal access token",
      "opening the pull request failed: the token may not do this (403: Resource not accessible by personal access token); it needs write access",
    ],
    [
      422,
      "Validation Failed",
      "opening the pull request failed: GitHub refused the request (422: Validation Failed: A pull request already exists for acme:feat/login-form.)",
    ],
  ])(
    "a %i while opening the pull request says why and resumes into one pull request",
    async (status, message, expected) => {
      const setupped = await setup();
      const { server } = setupped;
      server.failNext("POST /repos/acme/app/pulls", status, {
        message,
        documentation_url: "https://docs.github.com/rest/pulls/pulls",
        ...(status === 422
          ? {
              errors: [
                {
                  resource: "PullRequest",
                  code: "custom",
                  message:
                    "A pull request already exists for acme:feat/login-form.",
                },
              ],
            }
          : {}),
      });
      const failed = await archiveIn(setupped);
      expect(failed.status).toBe("partial");
      expect(failed.steps.at(-1)).toMatchObject({
        id: "open-pr",
        status: "failed",
      });
      expect(failed.steps.at(-1)?.detail).toContain(expected);
      expect(failed.next).toContain("playbook archive --resume");
      expect((await archiveIn(setupped, { resume: true })).status).toBe(
        "success",
      );
      expect(
        calls(server, "POST", /\/pulls$/).filter((r) => r.status === 201),
      ).toHaveLength(1);
    },
  );

  it("a server error while opening the pull request is resumed into exactly one pull request", async () => {
    const setupped = await setup();
    const { server } = setupped;
    server.failNext("POST /repos/acme/app/pulls", 502);
    const failed = await archiveIn(setupped);
    expect(failed.status).toBe("partial");
    expect(failed.steps.at(-1)).toMatchObject({
      id: "open-pr",
      status: "failed",
    });
    expect(failed.steps.at(-1)?.detail).toContain("GitHub answered 502");
    expect((await archiveIn(setupped, { resume: true })).status).toBe(
      "success",
    );
    expect(
      calls(server, "POST", /\/pulls$/).filter((r) => r.status === 201),
    ).toHaveLength(1);
  });

  it("a merge GitHub refuses for a conflict in the work stops with the branch clean, and the next step ends merged", async () => {
    const setupped = await setup();
    const { repo, server } = setupped;
    pushConflictingWorkToMain(repo);
    const refused = await archiveIn(setupped);
    expect(refused.status).toBe("partial");
    expect(refused.steps.at(-1)?.detail).toBe(
      "feat/login-form and origin/main changed the same lines (in src/login-form.tsx), which only a person can reconcile; origin/main is being merged into feat/login-form here, with those conflicts left in the files.",
    );
    expect(refused.next).toBe(
      "resolve the conflicts in src/login-form.tsx, `git add` them and `git commit` (or `git merge --abort` to go back), then run `playbook archive --resume`.",
    );
    expect(calls(server, "PUT", /merge$/)[0]?.status).toBe(405);
    expect(repo.git("branch", "--show-current").trim()).toBe("feat/login-form");
    expect(repo.git("status", "--porcelain").trim()).toBe(
      "AA src/login-form.tsx",
    );

    repo.write("src/login-form.tsx", "export const LoginForm = () => null;\n");
    repo.git("add", "src/login-form.tsx");
    repo.git("commit", "-q", "--no-edit");
    const resumed = await archiveIn(setupped, { resume: true });
    expect(resumed.status, resumed.next ?? "").toBe("success");
    expect(bare(repo, "show", "main:src/login-form.tsx")).toBe(
      "export const LoginForm = () => null;",
    );
  });

  it("main's state.md changed meanwhile (another archive's bookkeeping): main is merged into the branch, pushed, and the pull request merged", async () => {
    const setupped = await setup();
    const { repo, server } = setupped;
    pushConflictingStateToMain(repo);
    const outcome = await archiveIn(setupped);
    expect(outcome.status, outcome.next ?? "").toBe("success");
    expect(outcome.steps.find((s) => s.id === "merge")?.detail).toMatch(
      /^#1 merged with merge \([0-9a-f]{7}\), after merging origin\/main into feat\/login-form$/,
    );
    expect(calls(server, "PUT", /merge$/).map((r) => r.status)).toEqual([
      405, 200,
    ]);
    const state = bare(repo, "show", "main:state.md");
    expect(state).toContain("active: null");
    expect(state).toContain(`last_archived: ${ARCHIVED}`);
    expect(state).not.toContain("<<<<<<<");
  });
});
