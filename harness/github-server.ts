import {
  listenOnLoopback,
  type RecordedRequest,
} from "./github-server/http-listener.ts";
import {
  answerGraphql,
  settleAutoMerges,
} from "./github-server/graphql-route.ts";
import { loadValidation } from "./github-server/openapi.ts";
import { closePullRequest } from "./github-server/pull-state.ts";
import { createRoutes } from "./github-server/routing.ts";
import { createFaultQueue } from "./github-server/scripted-faults.ts";
import {
  createServerState,
  setChecks,
  type GitHubCheck,
  type StoredReview,
} from "./github-server/server-state.ts";

export type { RecordedRequest } from "./github-server/http-listener.ts";
export type { GitHubCheck } from "./github-server/server-state.ts";

export interface GitHubServerOptions {
  /** Absolute path of the bare repository (`git init --bare -b main`). */
  bare: string;
  owner: string;
  repo: string;
  /** Reported as the repository's default branch (default "main"). */
  defaultBranch?: string;
  /** When set, requests must carry `authorization: token <t>` or `Bearer <t>`; otherwise 401 with GitHub's error shape. */
  token?: string;
  /** The login of the token's user, GraphQL's `viewer` (default "playbook-bot"). */
  viewer?: string;
}

export interface GitHubServer {
  /** Base URL for Octokit, e.g. http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  /** Every request received, in the order they were answered. */
  readonly requests: RecordedRequest[];
  /** Schema violations of requests or responses (operation id, where, JSON pointer, message) and server errors. */
  readonly violations: string[];
  /** Replaces the commit statuses and check runs reported for the full commit `sha`. */
  setChecks(sha: string, checks: GitHubCheck[]): void;
  /**
   * Replaces the ruleset rules repos/get-branch-rules reports for `branch` (each `{type, parameters?, ruleset_id?,
   * ...}` as GitHub describes a detailed rule).
   */
  setBranchRules(branch: string, rules: Record<string, unknown>[]): void;
  /** Closes a PR as a person would on github.com (state closed, not merged). */
  closePullRequest(number: number): void;
  /**
   * `user` reviews pull request `number` on its head at that moment, once its reviews have been listed
   * `afterPolls` times (0: before the next listing).
   */
  scriptReview(
    number: number,
    user: string,
    state: StoredReview["state"],
    afterPolls?: number,
  ): void;
  /** Whether GitHub's auto-merge is on, or the pull request is in the merge queue (until GitHub merges it). */
  mergeRequest(number: number): "auto-merge" | "merge-queue" | null;
  /**
   * The next request matching `route` ("PUT /repos/o/r/pulls/1/merge"; `*` matches one path segment) answers
   * `status` with `body` and `headers` instead of being handled. Queued faults are used once each, in order.
   */
  failNext(
    route: string,
    status: number,
    body?: unknown,
    headers?: Record<string, string>,
  ): void;
  close(): Promise<void>;
}

/**
 * Starts a GitHub-compatible HTTP server on 127.0.0.1 for Octokit (`baseUrl: server.url`). It serves repos/get,
 * pulls create/list/get/update/merge, pulls/list-reviews, git/delete-ref, the combined status and the check runs of a
 * ref, the rules of a branch, a file's content, and GraphQL's auto-merge and merge queue (POST /graphql, checked
 * against GitHub's GraphQL schema), performs merges with
 * real git in `options.bare`, and checks every request and response against GitHub's OpenAPI description.
 */
export async function startGitHubServer(
  options: GitHubServerOptions,
): Promise<GitHubServer> {
  loadValidation();
  const state = createServerState(options);
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const faults = createFaultQueue();
  const listener = await listenOnLoopback({
    state,
    routes: createRoutes(state),
    faults,
    token: options.token,
    requests,
    violations,
    graphql: (body) => answerGraphql(state, body, violations),
    settle: () => settleAutoMerges(state),
  });
  state.url = listener.url;
  return {
    url: state.url,
    requests,
    violations,
    setChecks: (sha, list) => setChecks(state, sha, list),
    setBranchRules: (branch, rules) => state.branchRules.set(branch, rules),
    closePullRequest: (number) => closePullRequest(state, number),
    scriptReview: (number, user, review, afterPolls = 0) =>
      state.scriptedReviews.push({ number, user, state: review, afterPolls }),
    mergeRequest: (number) => {
      const pr = state.pulls.get(number);
      return pr?.queued ? "merge-queue" : pr?.autoMerge ? "auto-merge" : null;
    },
    failNext: (route, status, body, headers) =>
      faults.add(route, status, body, headers),
    close: () => listener.close(),
  };
}
