import { createBareRepository } from "./bare-repository.ts";
import type { JsonObject } from "./openapi.ts";

// What the local GitHub remembers between requests: its pull requests and the checks reported per commit; the
// branches themselves live in the bare repository.

export type BareRepository = ReturnType<typeof createBareRepository>;

/** A commit status and check run of the same name, as `setChecks` reports it. */
export interface GitHubCheck {
  name: string;
  state: "pending" | "success" | "failure";
}

export interface StoredCheck extends GitHubCheck {
  id: number;
  at: string;
}

export interface PullRequestState {
  number: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  draft: boolean;
  state: "open" | "closed";
  headSha: string;
  baseSha: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  mergeCommitSha: string | null;
  /** GitHub's auto-merge, once turned on through GraphQL: the merge method it merges with. */
  autoMerge: { method: string; enabledAt: string } | null;
  /** The merge queue entry, once enqueued through GraphQL. */
  queued: { enqueuedAt: string } | null;
}

/** A review as `pulls/list-reviews` reports it; `commitId` is the head it was given on. */
export interface StoredReview {
  id: number;
  user: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED";
  commitId: string;
  at: string;
}

/** A review a person gives once the reviews have been listed `afterPolls` times. */
export interface ScriptedReview {
  number: number;
  user: string;
  state: StoredReview["state"];
  afterPolls: number;
}

export interface ServerState {
  readonly owner: string;
  readonly repo: string;
  readonly defaultBranch: string;
  readonly git: BareRepository;
  readonly pulls: Map<number, PullRequestState>;
  /** Full commit sha to the checks reported for it. */
  readonly checks: Map<string, StoredCheck[]>;
  /** Branch name to the ruleset rules repos/get-branch-rules reports for it (none unless set). */
  readonly branchRules: Map<string, JsonObject[]>;
  /** Pull request number to its reviews, oldest first. */
  readonly reviews: Map<number, StoredReview[]>;
  /** Reviews still to come, and how often each pull request's reviews were listed. */
  readonly scriptedReviews: ScriptedReview[];
  readonly reviewPolls: Map<number, number>;
  /** The login of the token's user (GraphQL `viewer`). */
  readonly viewer: string;
  readonly startedAt: string;
  nextCheckId: number;
  /** The base URL, known once the server listens; payloads are built later, so they always see it. */
  url: string;
}

export function timestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function createServerState(options: {
  bare: string;
  owner: string;
  repo: string;
  defaultBranch?: string;
  viewer?: string;
}): ServerState {
  return {
    owner: options.owner,
    repo: options.repo,
    defaultBranch: options.defaultBranch ?? "main",
    git: createBareRepository(options.bare),
    pulls: new Map(),
    checks: new Map(),
    branchRules: new Map(),
    reviews: new Map(),
    scriptedReviews: [],
    reviewPolls: new Map(),
    viewer: options.viewer ?? "playbook-bot",
    startedAt: timestamp(),
    nextCheckId: 1,
    url: "",
  };
}

export function setChecks(
  state: ServerState,
  sha: string,
  list: GitHubCheck[],
): void {
  const at = timestamp();
  state.checks.set(
    sha,
    list.map((check) => ({ ...check, id: state.nextCheckId++, at })),
  );
}
