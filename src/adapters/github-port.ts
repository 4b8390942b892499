import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import Bottleneck from "bottleneck/light.js";
import type {
  GitHubPort,
  PullRequest,
  PullRequestMergeState,
} from "../core/ports.ts";
import { GitHubError } from "./github-error.ts";

export { GitHubError } from "./github-error.ts";

export interface GitHubPortOptions {
  token: string;
  baseUrl: string;
  owner: string;
  repo: string;
  /** Retries of failed requests (server errors, rate limits); tests use 0. */
  retries?: number;
  /** Handle rate-limit answers by waiting (default); tests turn it off. */
  throttle?: boolean;
}

const Client = Octokit.plugin(retry, throttling);

/**
 * The GitHub port: Octokit with the retry and throttling plugins. A rate limit is waited out once when GitHub says
 * it ends within a minute; otherwise the error says when to try again. Errors never carry the token.
 */
export function createGitHubPort(options: GitHubPortOptions): GitHubPort {
  const retries = options.retries ?? 2;
  let requests = 0;
  const octokit = new Client({
    auth: options.token,
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    userAgent: "playbook-kit",
    retry: { retries, doNotRetry: [400, 401, 403, 404, 405, 409, 422] },
    throttle: {
      enabled: options.throttle ?? true,
      // The plugin spaces writes 1 s apart and writes that notify people (opening, merging) 3 s apart, rules GitHub sets
      // for integrations making many of them; an archive makes three writes and would wait 4 s for nothing.
      // Rate-limit answers are still waited out.
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
      notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
      onRateLimit: (
        after: number,
        _options: unknown,
        _octokit: unknown,
        count: number,
      ) => retries > 0 && count < 1 && after <= 60,
      onSecondaryRateLimit: (
        after: number,
        _options: unknown,
        _octokit: unknown,
        count: number,
      ) => retries > 0 && count < 1 && after <= 60,
    },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    // Counted where each request leaves, so the retries the plugins make are counted too.
    request: {
      fetch: (...args: Parameters<typeof fetch>) => {
        requests++;
        return fetch(...args);
      },
    },
  });
  const { owner, repo } = options;
  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw toGitHubError(what, error, options.token);
    }
  };
  return {
    repository: { owner, repo },
    requests: () => requests,
    defaultBranch: () =>
      call(
        "reading the repository",
        async () =>
          (await octokit.rest.repos.get({ owner, repo })).data.default_branch,
      ),
    pullRequestsFor: (branch, base) =>
      call("listing pull requests", async () => {
        const { data } = await octokit.rest.pulls.list({
          owner,
          repo,
          head: `${owner}:${branch}`,
          base,
          state: "all",
          sort: "created",
          direction: "desc",
          per_page: 30,
        });
        return data.map((pr) => toPullRequest(pr));
      }),
    createPullRequest: (input) =>
      call("opening the pull request", async () =>
        toPullRequest(
          (await octokit.rest.pulls.create({ owner, repo, ...input })).data,
        ),
      ),
    getPullRequest: (number) =>
      call(`reading pull request #${number}`, async () =>
        toPullRequest(
          (await octokit.rest.pulls.get({ owner, repo, pull_number: number }))
            .data,
        ),
      ),
    updatePullRequest: (number, input) =>
      call(`updating pull request #${number}`, async () =>
        toPullRequest(
          (
            await octokit.rest.pulls.update({
              owner,
              repo,
              pull_number: number,
              body: input.body,
            })
          ).data,
        ),
      ),
    checks: (sha) =>
      call("reading the checks", async () => {
        const [status, runs] = await Promise.all([
          octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref: sha }),
          octokit.rest.checks.listForRef({
            owner,
            repo,
            ref: sha,
            per_page: 100,
          }),
        ]);
        const pending: string[] = [];
        const failed: string[] = [];
        for (const s of status.data.statuses) {
          if (s.state === "pending") pending.push(s.context);
          else if (s.state === "failure" || s.state === "error")
            failed.push(s.context);
        }
        for (const run of runs.data.check_runs) {
          if (run.status !== "completed") pending.push(run.name);
          else if (
            [
              "failure",
              "timed_out",
              "cancelled",
              "action_required",
              "startup_failure",
            ].includes(run.conclusion ?? "")
          )
            failed.push(run.name);
        }
        // A check often reports both as a commit status and as a check run.
        return { pending: [...new Set(pending)], failed: [...new Set(failed)] };
      }),
    merge: (number, input) =>
      call(`merging pull request #${number}`, async () => {
        const { data } = await octokit.rest.pulls.merge({
          owner,
          repo,
          pull_number: number,
          sha: input.sha,
          merge_method: input.method,
          commit_title: input.title,
        });
        return data.sha;
      }),
    readFile: async (path, ref) => {
      try {
        const { data } = await octokit.rest.repos.getContent({
          owner,
          repo,
          path,
          ref,
        });
        if (Array.isArray(data) || data.type !== "file" || !("content" in data))
          return null;
        return Buffer.from(data.content, "base64").toString("utf8");
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw toGitHubError(`reading ${path} on ${ref}`, error, options.token);
      }
    },
    branchRules: (branch) =>
      call(`reading the rules of ${branch}`, async () => {
        const { data } = await octokit.rest.repos.getBranchRules({
          owner,
          repo,
          branch,
          per_page: 100,
        });
        return data.map((rule) => ({
          type: rule.type,
          parameters:
            "parameters" in rule &&
            typeof rule.parameters === "object" &&
            rule.parameters !== null
              ? (rule.parameters as Record<string, unknown>)
              : {},
        }));
      }),
    reviews: (number) =>
      call(`reading the reviews of #${number}`, async () => {
        const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, {
          owner,
          repo,
          pull_number: number,
          per_page: 100,
        });
        return reviews.map((review) => ({
          user: review.user?.login ?? null,
          state: review.state,
          commitId: review.commit_id,
        }));
      }),
    mergeState: (number) =>
      call(`reading how #${number} is to be merged`, async () => {
        const data = await octokit.graphql<MergeStateData>(MERGE_STATE, {
          owner,
          name: repo,
          number,
        });
        const pr = data.repository?.pullRequest;
        if (!pr)
          throw Object.assign(new Error(`no pull request #${number}`), {
            status: 404,
          });
        return {
          viewer: data.viewer.login,
          id: pr.id,
          autoMerge: pr.autoMergeRequest !== null,
          queued: pr.mergeQueueEntry?.state ?? null,
        } satisfies PullRequestMergeState;
      }),
    enableAutoMerge: (input) =>
      call("turning on GitHub's auto-merge", async () => {
        await octokit.graphql(ENABLE_AUTO_MERGE, {
          id: input.pullRequestId,
          head: input.headSha,
          // "method" is one of @octokit/graphql's own options, never a variable name.
          mergeMethod: input.method.toUpperCase(),
        });
      }),
    enqueue: (input) =>
      call("adding the pull request to the merge queue", async () => {
        await octokit.graphql(ENQUEUE, {
          id: input.pullRequestId,
          head: input.headSha,
        });
      }),
    deleteBranch: async (branch) => {
      try {
        await octokit.rest.git.deleteRef({
          owner,
          repo,
          ref: `heads/${branch}`,
        });
        return "deleted";
      } catch (error) {
        if (statusOf(error) === 422) return "missing";
        throw toGitHubError(
          `deleting the branch ${branch}`,
          error,
          options.token,
        );
      }
    },
  };
}

// The GraphQL operations the merge policies use (docs/archive.md#merge-policies); the test server checks them
// against GitHub's public schema.
const MERGE_STATE = `query PlaybookMergeState($owner: String!, $name: String!, $number: Int!) {
  viewer { login }
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      id
      autoMergeRequest { enabledAt }
      mergeQueueEntry { state }
    }
  }
}`;

const ENABLE_AUTO_MERGE = `mutation PlaybookEnableAutoMerge($id: ID!, $head: GitObjectID!, $mergeMethod: PullRequestMergeMethod!) {
  enablePullRequestAutoMerge(input: { pullRequestId: $id, expectedHeadOid: $head, mergeMethod: $mergeMethod }) {
    pullRequest { autoMergeRequest { enabledAt } }
  }
}`;

const ENQUEUE = `mutation PlaybookEnqueue($id: ID!, $head: GitObjectID!) {
  enqueuePullRequest(input: { pullRequestId: $id, expectedHeadOid: $head }) {
    mergeQueueEntry { state }
  }
}`;

interface MergeStateData {
  viewer: { login: string };
  repository: {
    pullRequest: {
      id: string;
      autoMergeRequest: { enabledAt: string | null } | null;
      mergeQueueEntry: { state: string } | null;
    } | null;
  } | null;
}

interface PullData {
  number: number;
  html_url: string;
  state: string;
  merged?: boolean;
  merged_at: string | null;
  head: { sha: string; ref: string };
  base: { ref: string };
}

function toPullRequest(pr: PullData): PullRequest {
  return {
    number: pr.number,
    url: pr.html_url,
    state: pr.state === "open" ? "open" : "closed",
    merged: pr.merged === true || pr.merged_at !== null,
    headSha: pr.head.sha,
    headRef: pr.head.ref,
    baseRef: pr.base.ref,
  };
}

function statusOf(error: unknown): number {
  return typeof error === "object" &&
    error !== null &&
    "status" in error &&
    typeof error.status === "number"
    ? error.status
    : 0;
}

/** GitHub's own message for a failed call, with what was being done; the token is cut out wherever it shows. */
function toGitHubError(
  what: string,
  error: unknown,
  token: string,
): GitHubError {
  const status = statusOf(error);
  const data =
    typeof error === "object" && error !== null && "response" in error
      ? (
          error as {
            response?: { data?: { message?: unknown; errors?: unknown } };
          }
        ).response?.data
      : undefined;
  // GraphQL answers 200 with `errors` (octokit's GraphqlResponseError), each with GitHub's message.
  const graphqlErrors =
    typeof error === "object" &&
    error !== null &&
    "errors" in error &&
    Array.isArray(error.errors)
      ? error.errors.flatMap((e: unknown) =>
          typeof e === "object" &&
          e !== null &&
          "message" in e &&
          typeof e.message === "string"
            ? [e.message]
            : [],
        )
      : [];
  if (status === 0 && graphqlErrors.length > 0)
    return new GitHubError(
      422,
      `${what} failed: GitHub refused it (${graphqlErrors.join("; ")})`
        .split(token)
        .join("[token]"),
    );
  const raw = data?.message ?? "";
  // A 422 puts the useful part in `errors` ("No commits between main and feat/x").
  const reasons = Array.isArray(data?.errors)
    ? data.errors.flatMap((e: unknown) =>
        typeof e === "object" &&
        e !== null &&
        "message" in e &&
        typeof e.message === "string"
          ? [e.message]
          : [],
      )
    : [];
  const detail =
    typeof raw === "string" && raw !== ""
      ? [raw, ...reasons].join(": ")
      : error instanceof Error
        ? error.message
        : String(error);
  const why =
    status === 401
      ? "the token was refused (401); check GITHUB_TOKEN or GH_TOKEN"
      : (status === 403 || status === 429) && /rate limit/i.test(detail)
        ? `GitHub's rate limit was reached (${detail})${retryAt(error)}`
        : status === 403
          ? `the token may not do this (403: ${detail}); it needs write access to the repository's contents and pull requests (the \`repo\` scope for a classic token)`
          : status === 404
            ? `GitHub answered 404 (${detail}): the repository does not exist or the token cannot see it; check archive.repository and the token's access`
            : status === 422
              ? `GitHub refused the request (422: ${detail})`
              : status === 0
                ? `GitHub could not be reached (${detail})`
                : `GitHub answered ${status}: ${detail}`;
  return new GitHubError(
    status,
    `${what} failed: ${why}`.split(token).join("[token]"),
  );
}

/** When GitHub says the rate limit lifts: `retry-after` seconds, else the `x-ratelimit-reset` epoch. */
function retryAt(error: unknown): string {
  const headers =
    typeof error === "object" && error !== null && "response" in error
      ? (error as { response?: { headers?: Record<string, unknown> } }).response
          ?.headers
      : undefined;
  const after = Number(headers?.["retry-after"]);
  const reset = Number(headers?.["x-ratelimit-reset"]);
  const at =
    after > 0 ? Date.now() + after * 1000 : reset > 0 ? reset * 1000 : NaN;
  return Number.isFinite(at)
    ? `; try again after ${new Date(at).toISOString().slice(11, 16)} UTC`
    : "";
}
