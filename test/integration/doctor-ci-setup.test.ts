import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitHubPort } from "../../src/adapters/github-port.ts";
import { checkCiSetup } from "../../src/app/scaffold/check-ci-setup.ts";
import type { Finding } from "../../src/app/scaffold/finding.ts";
import {
  CI_CHECK_NAME,
  GITHUB_WORKFLOW,
  githubWorkflow,
} from "../../src/core/scaffold/ci-workflow.ts";
import {
  GITHUB_TEST_TOKEN,
  useGitHubServers,
} from "../helpers/github-servers.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const startServer = useGitHubServers();

const REQUIRED = {
  type: "required_status_checks",
  parameters: {
    strict_required_status_checks_policy: false,
    required_status_checks: [{ context: CI_CHECK_NAME }],
  },
  ruleset_source_type: "Repository",
  ruleset_source: "acme/app",
  ruleset_id: 1,
};
const CODE_OWNERS = {
  type: "pull_request",
  parameters: {
    required_approving_review_count: 1,
    dismiss_stale_reviews_on_push: true,
    require_code_owner_review: true,
    require_last_push_approval: false,
    required_review_thread_resolution: false,
  },
  ruleset_source_type: "Repository",
  ruleset_source: "acme/app",
  ruleset_id: 1,
};

/** A project that chose CI (the workflow is in it), whose origin is served by the local GitHub as acme/app. */
function project(workflowOnMain: string | null) {
  const p = createTempProject({
    "package.json": '{"name":"app"}\n',
    [GITHUB_WORKFLOW]: workflowOnMain ?? githubWorkflow(),
    ".claude/playbook.json": JSON.stringify({
      archive: { repository: "acme/app" },
    }),
  });
  const bare = realpathSync(mkdtempSync(join(tmpdir(), "playbook-bare-")));
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: p.dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@e.x",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@e.x",
      },
    });
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
  git("init", "-q", "-b", "main");
  if (workflowOnMain === null)
    git("rm", "-q", "--cached", "--ignore-unmatch", GITHUB_WORKFLOW);
  git("add", "-A");
  if (workflowOnMain === null) git("reset", "-q", "--", GITHUB_WORKFLOW);
  git("commit", "-q", "-m", "init");
  git("remote", "add", "origin", bare);
  git("push", "-q", "origin", "main");
  return { dir: p.dir, bare };
}

async function doctorCi(
  dir: string,
  env: Record<string, string | undefined>,
): Promise<Finding[]> {
  return checkCiSetup(dir, {
    env,
    createGitHub: (options) =>
      Promise.resolve(
        createGitHubPort({ ...options, retries: 0, throttle: false }),
      ),
  });
}

describe("playbook doctor: does GitHub re-prove pull requests with the base branch's playbook", () => {
  it("set up: the workflow on main, a ruleset requiring its check and a code owner's review", async () => {
    const { dir, bare } = project(githubWorkflow());
    const server = await startServer(bare);
    server.setBranchRules("main", [REQUIRED, CODE_OWNERS]);

    const findings = await doctorCi(dir, {
      GITHUB_TOKEN: GITHUB_TEST_TOKEN,
      GITHUB_API_URL: server.url,
    });

    expect(findings.map((f) => [f.level, f.message])).toEqual([
      ["ok", `${GITHUB_WORKFLOW} on main runs on pull_request_target`],
      ["ok", `a ruleset requires the check ${CI_CHECK_NAME} on main`],
      ["ok", "a ruleset requires a code owner's review on main"],
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "GET /repos/acme/app/rules/branches/main",
        expect.stringMatching(/^GET \/repos\/acme\/app\/contents\//),
      ]),
    );
  });

  it("not set up: no workflow on main, no ruleset; each says what to do", async () => {
    const { dir, bare } = project(null);
    const server = await startServer(bare);

    const findings = await doctorCi(dir, {
      GITHUB_TOKEN: GITHUB_TEST_TOKEN,
      GITHUB_API_URL: server.url,
    });

    expect(findings.map((f) => f.level)).toEqual(["error", "error", "warn"]);
    expect(findings[0]?.message).toBe(
      `${GITHUB_WORKFLOW} is not on main: pull requests are not re-proved`,
    );
    expect(findings[1]?.fix).toContain(
      `"Require status checks to pass" with ${CI_CHECK_NAME}`,
    );
  });

  it("a pull_request workflow on main is an error: a branch could redefine its check", async () => {
    const old = githubWorkflow().replace(
      /on:\n {2}pull_request_target:\n {4}types: .*\n/,
      "on:\n  pull_request:\n",
    );
    const { dir, bare } = project(old);
    const server = await startServer(bare);
    server.setBranchRules("main", [REQUIRED, CODE_OWNERS]);

    const findings = await doctorCi(dir, {
      GITHUB_TOKEN: GITHUB_TEST_TOKEN,
      GITHUB_API_URL: server.url,
    });

    expect(findings[0]).toMatchObject({
      level: "error",
      message: `${GITHUB_WORKFLOW} on main runs on pull_request, so a branch can redefine its own check`,
    });
  });

  it("without a token, it says what it could not check and how to check it, never ok", async () => {
    const { dir, bare } = project(githubWorkflow());
    const server = await startServer(bare);

    const findings = await doctorCi(dir, {
      GITHUB_API_URL: server.url,
      PATH: "/nonexistent",
    });

    expect(findings).toEqual([
      expect.objectContaining({
        level: "warn",
        message: expect.stringContaining("no GitHub token was found") as string,
        fix: expect.stringContaining("Settings > Rules > Rulesets") as string,
      }),
    ]);
    expect(server.requests).toEqual([]);
  });

  it("without a GitHub remote, it says so", async () => {
    const p = createTempProject({ [GITHUB_WORKFLOW]: githubWorkflow() });
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: p.dir });

    const findings = await doctorCi(p.dir, { GITHUB_TOKEN: GITHUB_TEST_TOKEN });

    expect(findings).toEqual([
      expect.objectContaining({
        level: "warn",
        message: expect.stringContaining(
          "names no GitHub repository",
        ) as string,
      }),
    ]);
  });

  it("a project that did not choose CI gets no CI finding", async () => {
    const p = createTempProject({ "package.json": "{}\n" });
    expect(await doctorCi(p.dir, {})).toEqual([]);
  });
});
