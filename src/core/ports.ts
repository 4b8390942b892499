import type { FileAddition } from "./archive/patch-additions.ts";
import type { WorkTreeStatus } from "./archive/git-status.ts";
import type { PullRequestReview } from "./archive/review-approval.ts";

// The ports: everything the use cases ask of git and GitHub, declared here and implemented in src/adapters
// (git-port.ts runs git, github-port.ts calls Octokit). Tests give the use cases their own implementations.

/** Some refs at one moment: their commits, and which branch HEAD is on when it is one of them. */
export interface RefSnapshot {
  /** Full ref name (`refs/heads/main`) to commit, for the refs that exist. */
  sha: ReadonlyMap<string, string>;
  /** Full ref name to the ref a symbolic ref points at (`refs/remotes/origin/HEAD` → `refs/remotes/origin/main`). */
  symref: ReadonlyMap<string, string>;
  /** The asked-for branch HEAD is on, or null when HEAD is elsewhere (or detached). */
  head: string | null;
  /** Full ref name to the folder of another working tree of this repository that has that branch checked out. */
  elsewhere: ReadonlyMap<string, string>;
}

/** Everything the archive workflow asks of git, so steps never build command lines themselves. */
export interface GitPort {
  /** How many git processes this port has started (for the benchmark). */
  readonly spawned: () => number;
  /** The commit a ref points at, or null when it does not exist. */
  resolve(ref: string): Promise<string | null>;
  /** HEAD (its branch and commit) and the changes against it, in one process. */
  status(): Promise<WorkTreeStatus>;
  addAll(paths: readonly string[]): Promise<void>;
  /** Commits what is staged; returns the new commit's abbreviated name, or null when nothing was staged. */
  commit(message: string): Promise<string | null>;
  remoteUrl(remote: string): Promise<string | null>;
  /** The given full ref names, read in one go, with the other working trees that have them checked out. */
  refs(names: readonly string[]): Promise<RefSnapshot>;
  /**
   * Pushes the local branch to the same name on `remote`, never forced, and without setting it as the branch's
   * upstream (that would write the repository's config, which parallel sessions share). Throws `PushRejected` when
   * the remote branch has commits this clone lacks, `GitCommandError` otherwise (no such local branch, no access).
   */
  push(
    remote: string,
    branch: string,
  ): Promise<{ status: "pushed" | "up-to-date"; summary: string }>;
  deleteRemoteBranch(
    remote: string,
    branch: string,
  ): Promise<"deleted" | "missing">;
  /** Updates `<remote>/<branch>`; false when the remote has no such branch. */
  fetch(remote: string, branch: string): Promise<boolean>;
  move(from: string, to: string): Promise<void>;
  /** Whether `path` exists in the commit `ref`. */
  existsAt(ref: string, path: string): Promise<boolean>;
  isAncestor(ancestor: string, of: string): Promise<boolean>;
  switchTo(branch: string): Promise<void>;
  /** Detaches HEAD at `commit` (the working tree follows): a branch checked out elsewhere can be merged onto here. */
  switchDetached(commit: string): Promise<void>;
  /** Pushes `commit` to `branch` on `remote`, never forced; throws `PushRejected` when the branch moved there. */
  pushCommit(
    remote: string,
    commit: string,
    branch: string,
  ): Promise<{ status: "pushed" | "up-to-date"; summary: string }>;
  /** Moves `ref` to `commit` if it still points at `expected` (compare and swap); false when it moved meanwhile. */
  updateRef(ref: string, commit: string, expected: string): Promise<boolean>;
  /** Merges with a merge commit; conflicts are left in the tree in diff3 style (with the common ancestor's lines). */
  mergeNoFf(branch: string, message: string): Promise<void>;
  mergeFfOnly(ref: string): Promise<void>;
  abortMerge(): Promise<void>;
  /** `origin/HEAD`'s branch, else `main` or `master` when it exists. */
  localDefaultBranch(remote: string): Promise<string | null>;
  /**
   * What the commits after `base` up to HEAD add, file by file (the secret scan of what a push publishes); null when
   * `base` does not exist.
   */
  additionsSince(base: string): Promise<FileAddition[] | null>;
}

/** A pull request as the archive sees it. */
export interface PullRequest {
  number: number;
  url: string;
  state: "open" | "closed";
  merged: boolean;
  headSha: string;
  headRef: string;
  baseRef: string;
}

/** Everything the archive workflow asks of GitHub, through Octokit. */
export interface GitHubPort {
  readonly repository: { owner: string; repo: string };
  /** How many HTTP requests this port has made, retries included (for the benchmark). */
  readonly requests: () => number;
  defaultBranch(): Promise<string>;
  /** Every pull request (open or closed) from `branch` into `base`, newest first. */
  pullRequestsFor(branch: string, base: string): Promise<PullRequest[]>;
  createPullRequest(input: {
    title: string;
    body: string;
    head: string;
    base: string;
  }): Promise<PullRequest>;
  getPullRequest(number: number): Promise<PullRequest>;
  /** Replaces the body of pull request `number` (`pulls/update`). */
  updatePullRequest(
    number: number,
    input: { body: string },
  ): Promise<PullRequest>;
  /** The names of the checks and statuses on `sha` that are still running, and those that failed. */
  checks(sha: string): Promise<{ pending: string[]; failed: string[] }>;
  merge(
    number: number,
    input: {
      sha: string;
      method: "merge" | "squash" | "rebase";
      title: string;
    },
  ): Promise<string>;
  /** Deletes the branch on GitHub; `missing` when it was already gone. */
  deleteBranch(branch: string): Promise<"deleted" | "missing">;
  /** The text of the file at `path` on `ref`, or null when there is none. */
  readFile(path: string, ref: string): Promise<string | null>;
  /** The rules of the repository's rulesets that apply to `branch` (`repos/get-branch-rules`). */
  branchRules(branch: string): Promise<BranchRule[]>;
  /** The reviews of pull request `number`, oldest first (`pulls/list-reviews`). */
  reviews(number: number): Promise<PullRequestReview[]>;
  /** Through GraphQL: the token's own login, and the pull request's node id, auto-merge and merge queue entry. */
  mergeState(number: number): Promise<PullRequestMergeState>;
  /** GraphQL `enablePullRequestAutoMerge`: GitHub merges `headSha` with `method` once the required checks pass. */
  enableAutoMerge(input: {
    pullRequestId: string;
    headSha: string;
    method: "merge" | "squash" | "rebase";
  }): Promise<void>;
  /** GraphQL `enqueuePullRequest`: adds the pull request at `headSha` to its base branch's merge queue. */
  enqueue(input: { pullRequestId: string; headSha: string }): Promise<void>;
}

export interface PullRequestMergeState {
  /** The login of the token's user. */
  viewer: string;
  /** The pull request's GraphQL node id. */
  id: string;
  autoMerge: boolean;
  /** The merge queue entry's state (QUEUED, AWAITING_CHECKS, ...), null when not queued. */
  queued: string | null;
}

/** One active ruleset rule of a branch, as GitHub describes it; `parameters` depends on `type`. */
export interface BranchRule {
  type: string;
  parameters: Record<string, unknown>;
}
