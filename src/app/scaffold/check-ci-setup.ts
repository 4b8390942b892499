import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readRemoteUrl } from "../../adapters/git-facts.ts";
import { findGitHubToken } from "../../adapters/github-token.ts";
import { parseRemoteUrl, apiUrlFor } from "../../core/archive/github-remote.ts";
import type { GitHubPort } from "../../core/ports.ts";
import { evaluateCiSetup } from "../../core/scaffold/ci-setup.ts";
import { GITHUB_WORKFLOW } from "../../core/scaffold/ci-workflow.ts";
import { MANIFEST_FILE, parseManifest } from "../../core/scaffold/manifest.ts";
import { readConfig } from "../workspace/read-config.ts";
import type { Finding } from "./finding.ts";

export interface CiSetupDeps {
  env: Readonly<Record<string, string | undefined>>;
  createGitHub: (options: {
    token: string;
    baseUrl: string;
    owner: string;
    repo: string;
  }) => Promise<GitHubPort>;
}

const HOW_TO_CHECK =
  "On GitHub, Settings > Rules > Rulesets of the default branch must require the check playbook-rerun (docs/ci.md).";

/**
 * `playbook doctor`'s CI findings (docs/ci.md), for a project that chose CI (`init --ci github`, or the workflow is
 * here): asks GitHub whether the default branch has the pull_request_target workflow and rulesets requiring its check
 * and a code owner's review. What it cannot ask (no GitHub remote, no token, GitHub's error) it says, with how to
 * check it by hand; it never reports such a setup as in order.
 */
export async function checkCiSetup(
  root: string,
  deps: CiSetupDeps,
): Promise<Finding[]> {
  const manifest = parseManifest(readOrNull(join(root, MANIFEST_FILE)));
  const chosen =
    (manifest.status === "ok" && manifest.manifest.answers.ci === "github") ||
    existsSync(join(root, GITHUB_WORKFLOW));
  if (!chosen) return [];
  const cannot = (why: string, fix: string): Finding[] => [
    {
      level: "warn",
      area: "ci",
      message: `could not check that GitHub re-proves pull requests with the base branch's playbook: ${why}`,
      fix: `${fix} ${HOW_TO_CHECK}`,
    },
  ];
  const config = readConfig(root).config.archive;
  const remoteUrl = readRemoteUrl(root, config.remote);
  const fromRemote = remoteUrl ? parseRemoteUrl(remoteUrl) : null;
  const named = config.repository?.split("/");
  const repository =
    named?.length === 2 && named[0] && named[1]
      ? { owner: named[0], repo: named[1] }
      : fromRemote;
  const apiUrl =
    deps.env["GITHUB_API_URL"] ||
    config.apiUrl ||
    (fromRemote ? apiUrlFor(fromRemote.host) : null);
  if (!repository || !apiUrl)
    return cannot(
      `the remote ${config.remote} names no GitHub repository`,
      "Add the GitHub remote (or set archive.repository in .claude/playbook.json), then run `playbook doctor` again.",
    );
  const token = findGitHubToken(deps.env);
  if (token === null)
    return cannot(
      "no GitHub token was found",
      "Set GITHUB_TOKEN or GH_TOKEN, or run `gh auth login`, then run `playbook doctor` again.",
    );
  try {
    const github = await deps.createGitHub({
      token,
      baseUrl: apiUrl,
      owner: repository.owner,
      repo: repository.repo,
    });
    const branch = await github.defaultBranch();
    const [workflow, rules] = await Promise.all([
      github.readFile(GITHUB_WORKFLOW, branch),
      github.branchRules(branch),
    ]);
    return evaluateCiSetup({ branch, workflow, rules }).map((f) => ({
      ...f,
      area: "ci",
    }));
  } catch (error) {
    return cannot(
      error instanceof Error ? error.message : String(error),
      "Check the token's access to the repository and the network, then run `playbook doctor` again.",
    );
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
