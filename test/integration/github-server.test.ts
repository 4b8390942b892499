import { execFileSync } from "node:child_process";
import { devNull } from "node:os";
import { Octokit } from "@octokit/rest";
import { afterEach, describe, expect, it } from "vitest";
import {
  startGitHubServer,
  type GitHubServer,
  type GitHubServerOptions,
} from "../../harness/github-server.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const OWNER = "acme";
const REPO = "widgets";
const DEV = { name: "Dev Eloper", email: "dev@example.com" };

const gitEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_")),
  ),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: devNull,
  GIT_AUTHOR_NAME: DEV.name,
  GIT_AUTHOR_EMAIL: DEV.email,
  GIT_COMMITTER_NAME: DEV.name,
  GIT_COMMITTER_EMAIL: DEV.email,
};

function git(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): string {
  return execFileSync("git", args, {
    cwd,
    env: { ...gitEnv, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

interface Author {
  name: string;
  email: string;
  date: string;
}

/** A bare "origin" with an initial commit on main, a working clone, the server over the bare repo and a client. */
interface Fixture {
  server: GitHubServer;
  octokit: Octokit;
  bare: string;
  work: string;
  /** Writes `files` on `branch` (created from main when missing) as one commit, pushes it and returns its sha. */
  commit(
    branch: string,
    files: Record<string, string>,
    message: string,
    author?: Author,
  ): string;
  /** A ref or revision of the bare repository. */
  sha(rev: string): string;
  /** `git log --format=<format> <args>` in the bare repository, one line per commit. */
  log(format: string, ...args: string[]): string[];
}

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A client of the local server that does not log the failures these tests provoke. */
function client(baseUrl: string, auth?: string): Octokit {
  return new Octokit({ baseUrl, log: quiet, ...(auth ? { auth } : {}) });
}

const running: { server: GitHubServer; allowViolations: boolean }[] = [];

afterEach(async () => {
  const finished = running.splice(0);
  await Promise.all(finished.map(({ server }) => server.close()));
  for (const { server, allowViolations } of finished)
    if (!allowViolations) expect(server.violations).toEqual([]);
});

async function setup(
  options: Partial<GitHubServerOptions> & { allowViolations?: boolean } = {},
): Promise<Fixture> {
  const { allowViolations = false, ...serverOptions } = options;
  const project = createTempProject();
  const bare = project.path("origin.git");
  const work = project.path("work");
  git(project.dir, ["init", "--quiet", "--bare", "-b", "main", bare]);
  git(project.dir, ["init", "--quiet", "-b", "main", work]);
  git(work, ["remote", "add", "origin", bare]);
  const server = await startGitHubServer({
    bare,
    owner: OWNER,
    repo: REPO,
    ...serverOptions,
  });
  running.push({ server, allowViolations });
  project.write("work/README.md", "# widgets\n");
  git(work, ["add", "--all"]);
  git(work, ["commit", "--quiet", "-m", "Initial commit"]);
  git(work, ["push", "--quiet", "origin", "main"]);
  const fixture: Fixture = {
    server,
    octokit: client(server.url, "test-token"),
    bare,
    work,
    commit(branch, files, message, author) {
      git(work, ["fetch", "--quiet", "origin"]);
      const pushed =
        git(work, ["branch", "--remotes", "--list", `origin/${branch}`]) !== "";
      git(work, [
        "checkout",
        "--quiet",
        "-B",
        branch,
        `origin/${pushed ? branch : "main"}`,
      ]);
      for (const [rel, text] of Object.entries(files))
        project.write(`work/${rel}`, text);
      git(work, ["add", "--all"]);
      git(
        work,
        ["commit", "--quiet", "-m", message],
        author
          ? {
              GIT_AUTHOR_NAME: author.name,
              GIT_AUTHOR_EMAIL: author.email,
              GIT_AUTHOR_DATE: author.date,
            }
          : {},
      );
      git(work, ["push", "--quiet", "origin", branch]);
      return git(work, ["rev-parse", "HEAD"]);
    },
    sha: (rev) => git(bare, ["rev-parse", rev]),
    log: (format, ...args) =>
      git(bare, ["log", `--format=${format}`, ...args]).split("\n"),
  };
  return fixture;
}

/** The fixture with `feat/x` holding one commit of `files` on top of main's initial commit. */
async function setupWithBranch(
  files: Record<string, string> = { "feature.txt": "feature\n" },
  options: Parameters<typeof setup>[0] = {},
): Promise<Fixture & { start: string; head: string }> {
  const fixture = await setup(options);
  const start = fixture.sha("main");
  const head = fixture.commit("feat/x", files, "Add feature");
  return { ...fixture, start, head };
}

const repoArgs = { owner: OWNER, repo: REPO };

async function openPull(fixture: Fixture, head = "feat/x") {
  const { data } = await fixture.octokit.pulls.create({
    ...repoArgs,
    title: "Add feature",
    head,
    base: "main",
    body: "Archive of the feature playbook.",
  });
  return data;
}

/** The status and body of a failed Octokit call. */
async function failure(call: Promise<unknown>): Promise<{
  status: number;
  data: unknown;
  headers: Record<string, unknown>;
}> {
  try {
    await call;
  } catch (cause) {
    const error = cause as {
      status: number;
      response?: { data: unknown; headers: Record<string, unknown> };
    };
    return {
      status: error.status,
      data: error.response?.data,
      headers: error.response?.headers ?? {},
    };
  }
  throw new Error("expected the request to fail");
}

describe("local GitHub server: pull requests", () => {
  it("creates, reads and merges a PR with a real two-parent merge commit that a clone can fetch", async () => {
    const fx = await setupWithBranch();
    fx.commit("main", { "main.txt": "main moved on\n" }, "Meanwhile on main");
    const baseBefore = fx.sha("main");

    const created = await openPull(fx);
    expect(created).toMatchObject({
      number: 1,
      state: "open",
      merged: false,
      mergeable: true,
      html_url: `https://github.com/${OWNER}/${REPO}/pull/1`,
      head: { ref: "feat/x", sha: fx.head, label: `${OWNER}:feat/x` },
      base: { ref: "main", sha: baseBefore },
    });

    const { data: pull } = await fx.octokit.pulls.get({
      ...repoArgs,
      pull_number: 1,
    });
    expect(pull).toMatchObject({
      state: "open",
      mergeable: true,
      mergeable_state: "clean",
      commits: 1,
      changed_files: 1,
      additions: 1,
    });

    const { data: merged, status } = await fx.octokit.pulls.merge({
      ...repoArgs,
      pull_number: 1,
      sha: fx.head,
      merge_method: "merge",
    });
    expect(status).toBe(200);
    expect(merged).toEqual({
      sha: fx.sha("main"),
      merged: true,
      message: "Pull Request successfully merged",
    });
    expect(fx.log("%P", "-1", "main")).toEqual([`${baseBefore} ${fx.head}`]);
    expect(fx.log("%s", "-1", "main")).toEqual([
      `Merge pull request #1 from ${OWNER}/feat/x`,
    ]);
    expect(git(fx.bare, ["show", "main:feature.txt"])).toBe("feature");
    expect(git(fx.bare, ["show", "main:main.txt"])).toBe("main moved on");

    git(fx.work, ["fetch", "--quiet", "origin"]);
    expect(git(fx.work, ["rev-parse", "origin/main"])).toBe(merged.sha);
    expect(git(fx.work, ["show", "origin/main:feature.txt"])).toBe("feature");

    const { data: after } = await fx.octokit.pulls.get({
      ...repoArgs,
      pull_number: 1,
    });
    expect(after).toMatchObject({
      state: "closed",
      merged: true,
      merge_commit_sha: merged.sha,
      head: { sha: fx.head },
    });
    expect(after.merged_at).not.toBeNull();
  });

  it("squash-merges the branch as one commit with one parent", async () => {
    const fx = await setupWithBranch();
    fx.commit("feat/x", { "second.txt": "second\n" }, "Add second file");
    const baseBefore = fx.sha("main");
    await openPull(fx);

    const { data } = await fx.octokit.pulls.merge({
      ...repoArgs,
      pull_number: 1,
      merge_method: "squash",
    });
    expect(data.sha).toBe(fx.sha("main"));
    expect(fx.log("%P", "-1", "main")).toEqual([baseBefore]);
    expect(fx.log("%s", "-1", "main")).toEqual(["Add feature (#1)"]);
    expect(git(fx.bare, ["log", "-1", "--format=%b", "main"])).toBe(
      "* Add feature\n\n* Add second file",
    );
    expect(
      git(fx.bare, ["diff", "--name-only", baseBefore, "main"]).split("\n"),
    ).toEqual(["feature.txt", "second.txt"]);
  });

  it("rebase-merges by replaying each commit on main with its message and author", async () => {
    const fx = await setupWithBranch();
    const ada = {
      name: "Ada Lovelace",
      email: "ada@example.com",
      date: "1700000000 +0100",
    };
    fx.commit(
      "feat/x",
      { "second.txt": "second\n" },
      "Add second file\n\nWith a body.",
      ada,
    );
    fx.commit("main", { "main.txt": "main moved on\n" }, "Meanwhile on main");
    const baseBefore = fx.sha("main");
    const original = fx.log("%H|%an <%ae>|%ad|%s", `main..feat/x`);
    await openPull(fx);

    const { data } = await fx.octokit.pulls.merge({
      ...repoArgs,
      pull_number: 1,
      merge_method: "rebase",
    });
    expect(data.sha).toBe(fx.sha("main"));
    expect(fx.log("%P", `${baseBefore}..main`)).toEqual([
      fx.sha("main~1"),
      baseBefore,
    ]);
    const replayed = fx.log("%H|%an <%ae>|%ad|%s", `${baseBefore}..main`);
    expect(replayed.map((line) => line.split("|").slice(1))).toEqual(
      original.map((line) => line.split("|").slice(1)),
    );
    expect(replayed[0]).toContain(
      "|Ada Lovelace <ada@example.com>|Tue Nov 14 23:13:20 2023 +0100|Add second file",
    );
    expect(git(fx.bare, ["log", "-1", "--format=%b", "main"])).toBe(
      "With a body.",
    );
    expect(replayed[0]!.split("|")[0]).not.toBe(original[0]!.split("|")[0]);
    expect(git(fx.bare, ["log", "-1", "--format=%cn", "main"])).toBe("GitHub");
    expect(
      git(fx.bare, ["ls-tree", "--name-only", "main"]).split("\n"),
    ).toEqual(["README.md", "feature.txt", "main.txt", "second.txt"]);
  });

  it("refuses a merge with a stale sha (409) and follows the branch's new head", async () => {
    const fx = await setupWithBranch();
    const baseBefore = fx.sha("main");
    await openPull(fx);
    const newHead = fx.commit(
      "feat/x",
      { "fix.txt": "fix\n" },
      "Fix review finding",
    );

    const stale = await failure(
      fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1, sha: fx.head }),
    );
    expect(stale).toMatchObject({
      status: 409,
      data: {
        message: "Head branch was modified. Review and try the merge again.",
      },
    });
    expect(fx.sha("main")).toBe(baseBefore);

    const { data: pull } = await fx.octokit.pulls.get({
      ...repoArgs,
      pull_number: 1,
    });
    expect(pull.head.sha).toBe(newHead);
    await fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1, sha: newHead });
    expect(fx.log("%P", "-1", "main")).toEqual([`${baseBefore} ${newHead}`]);
  });

  it("reports a conflict as dirty and refuses to merge it (405) without moving main", async () => {
    const fx = await setupWithBranch({
      "README.md": "# widgets, the branch\n",
    });
    fx.commit(
      "main",
      { "README.md": "# widgets, main\n" },
      "Edit readme on main",
    );
    const baseBefore = fx.sha("main");
    await openPull(fx);

    const { data: pull } = await fx.octokit.pulls.get({
      ...repoArgs,
      pull_number: 1,
    });
    expect(pull).toMatchObject({ mergeable: false, mergeable_state: "dirty" });
    const refused = await failure(
      fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 }),
    );
    expect(refused).toMatchObject({
      status: 405,
      data: { message: "Pull Request is not mergeable" },
    });
    expect(fx.sha("main")).toBe(baseBefore);
  });

  it("refuses to merge twice (405) and answers 404 for an unknown PR", async () => {
    const fx = await setupWithBranch();
    await openPull(fx);
    await fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 });
    const afterFirst = fx.sha("main");

    expect(
      (await failure(fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 })))
        .status,
    ).toBe(405);
    expect(fx.sha("main")).toBe(afterFirst);
    expect(
      (await failure(fx.octokit.pulls.merge({ ...repoArgs, pull_number: 7 })))
        .status,
    ).toBe(404);
    expect(
      await failure(fx.octokit.pulls.get({ ...repoArgs, pull_number: 7 })),
    ).toMatchObject({
      status: 404,
      data: {
        message: "Not Found",
        documentation_url:
          "https://docs.github.com/rest/pulls/pulls#get-a-pull-request",
      },
    });
  });

  it("rejects a second PR for the same head (422); list finds the open one, and a closed one only with state all", async () => {
    const fx = await setupWithBranch();
    const first = await openPull(fx);

    const duplicate = await failure(openPull(fx));
    expect(duplicate).toMatchObject({
      status: 422,
      data: {
        message: "Validation Failed",
        errors: [
          {
            code: "custom",
            message: `A pull request already exists for ${OWNER}:feat/x.`,
          },
        ],
      },
    });
    const { data: open } = await fx.octokit.pulls.list({
      ...repoArgs,
      head: `${OWNER}:feat/x`,
      state: "open",
    });
    expect(open.map((pull) => [pull.number, pull.html_url])).toEqual([
      [first.number, first.html_url],
    ]);
    expect(fx.server.requests.at(-1)).toMatchObject({
      method: "GET",
      path: `/repos/${OWNER}/${REPO}/pulls`,
      query: { head: `${OWNER}:feat/x`, state: "open" },
      body: null,
      status: 200,
    });

    fx.server.closePullRequest(first.number);
    const { data: stillOpen } = await fx.octokit.pulls.list({
      ...repoArgs,
      head: `${OWNER}:feat/x`,
    });
    expect(stillOpen).toEqual([]);
    const { data: all } = await fx.octokit.pulls.list({
      ...repoArgs,
      head: `${OWNER}:feat/x`,
      base: "main",
      state: "all",
    });
    expect(all.map((pull) => [pull.number, pull.state])).toEqual([
      [1, "closed"],
    ]);
    expect(
      (await failure(fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 })))
        .status,
    ).toBe(405);
  });

  it("updates a PR's title and body, closes and reopens it, and refuses a body over 65,536 characters (422) as GitHub does", async () => {
    const fx = await setupWithBranch();
    const created = await openPull(fx);
    const pull_number = created.number;

    const { data: updated } = await fx.octokit.pulls.update({
      ...repoArgs,
      pull_number,
      title: "Add the feature",
      body: "The proof, brought up to date.",
    });
    expect(updated).toMatchObject({
      number: pull_number,
      title: "Add the feature",
      body: "The proof, brought up to date.",
      state: "open",
    });
    // GitHub counts characters: 65,536 of them fit even where they take two UTF-16 units each.
    const fits = "😀".repeat(65_536);
    await fx.octokit.pulls.update({ ...repoArgs, pull_number, body: fits });
    expect(
      (await fx.octokit.pulls.get({ ...repoArgs, pull_number })).data.body,
    ).toBe(fits);
    expect(
      await failure(
        fx.octokit.pulls.update({
          ...repoArgs,
          pull_number,
          body: "x".repeat(65_537),
        }),
      ),
    ).toMatchObject({
      status: 422,
      data: {
        message: "Validation Failed",
        errors: [
          {
            field: "body",
            message: "body is too long (maximum is 65536 characters)",
          },
        ],
      },
    });

    await fx.octokit.pulls.update({
      ...repoArgs,
      pull_number,
      state: "closed",
    });
    expect(
      (await fx.octokit.pulls.get({ ...repoArgs, pull_number })).data.state,
    ).toBe("closed");
    await fx.octokit.pulls.update({ ...repoArgs, pull_number, state: "open" });
    expect(
      (await fx.octokit.pulls.get({ ...repoArgs, pull_number })).data.state,
    ).toBe("open");
    expect(
      (
        await failure(
          fx.octokit.pulls.update({ ...repoArgs, pull_number: 99, body: "x" }),
        )
      ).status,
    ).toBe(404);
  });

  it("rejects a PR whose head is missing or has no commits beyond the base (422)", async () => {
    const fx = await setupWithBranch();
    git(fx.work, ["push", "--quiet", "origin", "main:refs/heads/empty"]);
    expect(await failure(openPull(fx, "feat/missing"))).toMatchObject({
      status: 422,
      data: {
        errors: [{ resource: "PullRequest", field: "head", code: "invalid" }],
      },
    });
    expect(await failure(openPull(fx, "empty"))).toMatchObject({
      status: 422,
      data: { errors: [{ message: "No commits between main and empty" }] },
    });
  });
});

describe("local GitHub server: checks", () => {
  it("blocks the merge while a check is pending and merges once it succeeds", async () => {
    const fx = await setupWithBranch();
    await openPull(fx);
    fx.server.setChecks(fx.head, [{ name: "ci", state: "pending" }]);

    const { data: pull } = await fx.octokit.pulls.get({
      ...repoArgs,
      pull_number: 1,
    });
    expect(pull).toMatchObject({ mergeable: true, mergeable_state: "blocked" });
    expect(
      await failure(fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 })),
    ).toMatchObject({
      status: 405,
      data: { message: 'Required status check "ci" is expected.' },
    });
    const { data: status } = await fx.octokit.repos.getCombinedStatusForRef({
      ...repoArgs,
      ref: "feat/x",
    });
    expect(status).toMatchObject({
      state: "pending",
      sha: fx.head,
      total_count: 1,
    });
    const { data: runs } = await fx.octokit.checks.listForRef({
      ...repoArgs,
      ref: "feat/x",
    });
    expect(
      runs.check_runs.map((run) => [run.name, run.status, run.conclusion]),
    ).toEqual([["ci", "in_progress", null]]);
    expect(runs.check_runs[0]!.pull_requests.map((pr) => pr.number)).toEqual([
      1,
    ]);

    fx.server.setChecks(fx.head, [{ name: "ci", state: "success" }]);
    const { data: ready } = await fx.octokit.pulls.get({
      ...repoArgs,
      pull_number: 1,
    });
    expect(ready.mergeable_state).toBe("clean");
    const { data } = await fx.octokit.pulls.merge({
      ...repoArgs,
      pull_number: 1,
    });
    expect(data.merged).toBe(true);
  });

  it("reports failed checks through both status endpoints, and success with no checks at all", async () => {
    const fx = await setupWithBranch();
    await openPull(fx);
    fx.server.setChecks(fx.head, [
      { name: "ci", state: "success" },
      { name: "lint", state: "failure" },
    ]);

    const { data: status } = await fx.octokit.repos.getCombinedStatusForRef({
      ...repoArgs,
      ref: fx.head,
    });
    expect(status.state).toBe("failure");
    expect(status.statuses.map((s) => [s.context, s.state])).toEqual([
      ["ci", "success"],
      ["lint", "failure"],
    ]);
    const { data: runs } = await fx.octokit.checks.listForRef({
      ...repoArgs,
      ref: "feat/x",
    });
    expect(runs.total_count).toBe(2);
    expect(
      runs.check_runs.map((run) => [run.name, run.status, run.conclusion]),
    ).toEqual([
      ["ci", "completed", "success"],
      ["lint", "completed", "failure"],
    ]);
    expect(
      await failure(fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 })),
    ).toMatchObject({
      status: 405,
      data: { message: 'Required status check "lint" is failing.' },
    });

    const { data: none } = await fx.octokit.repos.getCombinedStatusForRef({
      ...repoArgs,
      ref: "main",
    });
    expect(none).toMatchObject({
      state: "success",
      statuses: [],
      total_count: 0,
    });
    const { data: noRuns } = await fx.octokit.checks.listForRef({
      ...repoArgs,
      ref: "main",
    });
    expect(noRuns).toEqual({ total_count: 0, check_runs: [] });
  });
});

describe("local GitHub server: refs, repository, auth and faults", () => {
  it("deletes a branch (204) so ls-remote no longer lists it; a second delete answers 422", async () => {
    const fx = await setupWithBranch();
    await openPull(fx);
    await fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 });

    const { status } = await fx.octokit.git.deleteRef({
      ...repoArgs,
      ref: "heads/feat/x",
    });
    expect(status).toBe(204);
    expect(git(fx.bare, ["ls-remote", fx.bare])).not.toContain(
      "refs/heads/feat/x",
    );
    expect(fx.server.requests.at(-1)).toMatchObject({
      method: "DELETE",
      path: `/repos/${OWNER}/${REPO}/git/refs/heads/feat/x`,
      status: 204,
    });
    expect(
      await failure(
        fx.octokit.git.deleteRef({ ...repoArgs, ref: "heads/feat/x" }),
      ),
    ).toMatchObject({
      status: 422,
      data: { message: "Reference does not exist" },
    });
    const { data: pull } = await fx.octokit.pulls.get({
      ...repoArgs,
      pull_number: 1,
    });
    expect(pull).toMatchObject({ merged: true, head: { sha: fx.head } });
  });

  it("answers 422 when merging a PR whose head branch was deleted", async () => {
    const fx = await setupWithBranch();
    await openPull(fx);
    await fx.octokit.git.deleteRef({ ...repoArgs, ref: "heads/feat/x" });
    expect(
      await failure(fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 })),
    ).toMatchObject({ status: 422, data: { errors: [{ field: "head" }] } });
  });

  it("reports the configured default branch", async () => {
    const fx = await setup();
    const { data } = await fx.octokit.repos.get(repoArgs);
    expect(data).toMatchObject({
      name: REPO,
      full_name: `${OWNER}/${REPO}`,
      default_branch: "main",
      owner: { login: OWNER },
      html_url: `https://github.com/${OWNER}/${REPO}`,
    });
    const trunk = await setup({ defaultBranch: "trunk" });
    expect((await trunk.octokit.repos.get(repoArgs)).data.default_branch).toBe(
      "trunk",
    );
    expect(
      (await failure(trunk.octokit.repos.get({ owner: OWNER, repo: "other" })))
        .status,
    ).toBe(404);
  });

  it("answers 401 without the configured token or with a wrong one", async () => {
    const fx = await setup({ token: "s3cret" });
    const anonymous = client(fx.server.url);
    const wrong = client(fx.server.url, "nope");
    expect(await failure(anonymous.repos.get(repoArgs))).toMatchObject({
      status: 401,
      data: { message: "Requires authentication" },
    });
    expect(await failure(wrong.repos.get(repoArgs))).toMatchObject({
      status: 401,
      data: { message: "Bad credentials" },
    });
    const right = client(fx.server.url, "s3cret");
    expect((await right.repos.get(repoArgs)).status).toBe(200);
    const bearer = await anonymous.request("GET /repos/{owner}/{repo}", {
      ...repoArgs,
      headers: { authorization: "Bearer s3cret" },
    });
    expect(bearer.status).toBe(200);
  });

  it("fails exactly the next matching request with an injected 502, rate limit or 429", async () => {
    const fx = await setupWithBranch();
    await openPull(fx);
    fx.server.failNext(`GET /repos/${OWNER}/${REPO}/pulls/*`, 502);

    expect((await fx.octokit.pulls.list(repoArgs)).status).toBe(200);
    expect(
      (await failure(fx.octokit.pulls.get({ ...repoArgs, pull_number: 1 })))
        .status,
    ).toBe(502);
    expect(
      (await fx.octokit.pulls.get({ ...repoArgs, pull_number: 1 })).status,
    ).toBe(200);
    expect(fx.server.requests.slice(-3).map((r) => r.status)).toEqual([
      200, 502, 200,
    ]);

    const reset = `${Math.floor(Date.now() / 1000) + 60}`;
    const merge = `PUT /repos/${OWNER}/${REPO}/pulls/1/merge`;
    fx.server.failNext(
      merge,
      403,
      {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url: "https://docs.github.com/rest",
      },
      { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
    );
    fx.server.failNext(
      merge,
      429,
      { message: "Too many requests" },
      { "retry-after": "1" },
    );
    const limited = await failure(
      fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 }),
    );
    expect(limited).toMatchObject({
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
    });
    const throttled = await failure(
      fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 }),
    );
    expect(throttled).toMatchObject({
      status: 429,
      headers: { "retry-after": "1" },
    });
    expect(fx.sha("main")).toBe(fx.start);
    expect(
      (await fx.octokit.pulls.merge({ ...repoArgs, pull_number: 1 })).data
        .merged,
    ).toBe(true);
  });

  it("records requests and responses that break GitHub's OpenAPI description", async () => {
    const fx = await setupWithBranch(
      { "feature.txt": "feature\n" },
      { allowViolations: true },
    );
    await openPull(fx);
    const invalid = await failure(
      fx.octokit.pulls.merge({
        ...repoArgs,
        pull_number: 1,
        merge_method: "fast-forward" as "merge",
      }),
    );
    expect(invalid.status).toBe(422);
    fx.server.failNext(`GET /repos/${OWNER}/${REPO}/pulls/1`, 404, {
      message: 404,
    });
    await failure(fx.octokit.pulls.get({ ...repoArgs, pull_number: 1 }));

    expect(fx.server.violations).toEqual([
      "pulls/merge request body #/merge_method: must be equal to one of the allowed values",
      "pulls/get response 404 #/message: must be string",
    ]);
    expect(fx.sha("main")).toBe(fx.start);
  });
});

describe("local GitHub server: reviews and GraphQL", () => {
  it("lists reviews a person gives after a number of listings, on the head of that moment", async () => {
    const fx = await setupWithBranch({ "feature.txt": "feature\n" });
    await openPull(fx);
    fx.server.scriptReview(1, "ana", "APPROVED", 1);
    const list = () =>
      fx.octokit.pulls.listReviews({ ...repoArgs, pull_number: 1 });
    expect((await list()).data).toEqual([]);
    const [review] = (await list()).data;
    expect(review).toMatchObject({
      user: { login: "ana" },
      state: "APPROVED",
      commit_id: fx.sha("feat/x"),
    });
  });

  it("answers the merge policies' GraphQL and records a query GitHub's schema refuses", async () => {
    const fx = await setupWithBranch(
      { "feature.txt": "feature\n" },
      { allowViolations: true },
    );
    await openPull(fx);
    const data = await fx.octokit.graphql<{
      viewer: { login: string };
      repository: { pullRequest: { id: string; autoMergeRequest: null } };
    }>(
      `query State($owner: String!, $name: String!, $number: Int!) {
        viewer { login }
        repository(owner: $owner, name: $name) { pullRequest(number: $number) { id autoMergeRequest { enabledAt } } }
      }`,
      { owner: OWNER, name: REPO, number: 1 },
    );
    expect(data.viewer.login).toBe("playbook-bot");
    expect(fx.server.violations).toEqual([]);
    // Each is a query GitHub refuses: a field PullRequest lacks, a variable of the wrong type, no operation name.
    await failure(
      fx.octokit.graphql(
        `query Wrong($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { pullRequest(number: 1) { autoMerge } } }`,
        { owner: OWNER, name: REPO },
      ),
    );
    await failure(
      fx.octokit.graphql(
        `mutation Enable($id: String!) { enablePullRequestAutoMerge(input: { pullRequestId: $id }) { clientMutationId } }`,
        { id: data.repository.pullRequest.id },
      ),
    );
    await fx.octokit.graphql(`{ viewer { login } }`);
    expect(fx.server.violations).toEqual([
      'graphql: Cannot query field "autoMerge" on type "PullRequest".',
      'graphql: Variable "$id" of type "String!" used in position expecting type "ID!".',
      "graphql operation without a name",
    ]);
  });

  it("turns auto-merge on while a check is pending and merges once it passes; refuses a pull request already green", async () => {
    const fx = await setupWithBranch({ "feature.txt": "feature\n" });
    await openPull(fx);
    const head = fx.sha("feat/x");
    const enable = (id: string) =>
      fx.octokit.graphql(
        `mutation Enable($id: ID!, $head: GitObjectID!) { enablePullRequestAutoMerge(input: { pullRequestId: $id, expectedHeadOid: $head, mergeMethod: SQUASH }) { clientMutationId } }`,
        { id, head },
      );
    const { repository } = await fx.octokit.graphql<{
      repository: { pullRequest: { id: string } };
    }>(
      `query Id($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { pullRequest(number: 1) { id } } }`,
      { owner: OWNER, name: REPO },
    );
    const id = repository.pullRequest.id;
    await expect(enable(id)).rejects.toThrow(
      "Pull request Pull request is in clean status",
    );
    fx.server.setChecks(head, [{ name: "ci", state: "pending" }]);
    await enable(id);
    expect(fx.server.mergeRequest(1)).toBe("auto-merge");
    expect(fx.sha("main")).toBe(fx.start);
    fx.server.setChecks(head, [{ name: "ci", state: "success" }]);
    const { data: pr } = await fx.octokit.pulls.get({
      ...repoArgs,
      pull_number: 1,
    });
    expect(pr.merged).toBe(true);
    expect(fx.sha("main")).not.toBe(fx.start);
    expect(fx.server.mergeRequest(1)).toBeNull();
  });
});
