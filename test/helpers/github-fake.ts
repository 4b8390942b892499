import { STATUS_CODES } from "node:http";
import { GitHubError } from "../../src/adapters/github-port.ts";
import type { PullRequestReview } from "../../src/core/archive/review-approval.ts";
import type {
  BranchRule,
  GitHubPort,
  PullRequest,
  PullRequestMergeState,
} from "../../src/core/ports.ts";

// GitHub as the archive's steps see it through GitHubPort, in memory: for step logic that does not need HTTP,
// Octokit or a bare repository. It refuses what harness/github-server.ts (and GitHub) refuse, with the same
// statuses and GitHub's messages, as a GitHubError like the real port's. Its message is always
// "<what> failed: GitHub answered <status>: <GitHub's message>", where the port words 401, 403, 404 and 422 more
// fully: the steps branch on `status`, never on that wording.

export type FakeGitHubMethod = Exclude<keyof GitHubPort, "repository">;

/** One call to the port, with the status it failed with (null when it answered). */
export interface FakeGitHubCall {
  method: FakeGitHubMethod;
  args: unknown[];
  failedWith: number | null;
}

export interface FakePullRequest {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: "open" | "closed";
  /** While open, the head branch's commit; closed or merged, the commit it had then. */
  headSha: string;
  /** Once merged: the head commit merged, the commit it made on the base branch, and how. */
  merged: {
    head: string;
    commit: string;
    method: string;
    title: string;
  } | null;
  /** Merging it conflicts with the base branch (set by `markConflicting`). */
  conflicting: boolean;
}

export interface FakeCheck {
  name: string;
  state: "pending" | "success" | "failure";
}

export interface GitHubFakeOptions {
  owner?: string;
  repo?: string;
  defaultBranch?: string;
  /** The repository's branches on GitHub: name to commit. */
  branches?: Record<string, string>;
}

/** Why GitHub refused a call; the port turns it into a GitHubError, scripting by hand sees a plain error. */
class Refusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export class GitHubFake implements GitHubPort {
  readonly repository: { owner: string; repo: string };
  /** The branches on GitHub, name to commit: a push from the clone lands here, a merge moves the base. */
  readonly branches: Map<string, string>;
  readonly pulls = new Map<number, FakePullRequest>();
  readonly calls: FakeGitHubCall[] = [];
  readonly requests = (): number => this.calls.length;
  private readonly defaultBranchName: string;
  private readonly checksBySha = new Map<string, FakeCheck[]>();
  private readonly faults: {
    method: FakeGitHubMethod;
    refusal: Refusal;
  }[] = [];
  private merges = 0;

  constructor(options: GitHubFakeOptions = {}) {
    this.repository = {
      owner: options.owner ?? "acme",
      repo: options.repo ?? "app",
    };
    this.defaultBranchName = options.defaultBranch ?? "main";
    this.branches = new Map(Object.entries(options.branches ?? {}));
  }

  // --- scripting, as a person or a CI would act on github.com ---

  /** A pull request opened earlier (by a run that stopped, or by hand); not logged as a call. */
  addPullRequest(input: {
    head: string;
    base?: string;
    title?: string;
  }): FakePullRequest {
    return this.open({
      head: input.head,
      base: input.base ?? this.defaultBranchName,
      title: input.title ?? `Merge ${input.head}`,
      body: "",
    });
  }

  /** Closes a pull request without merging it. */
  closePullRequest(number: number): void {
    const pr = this.existing(number);
    pr.headSha = this.branches.get(pr.head) ?? pr.headSha;
    pr.state = "closed";
  }

  /** Merges a pull request as the merge button would, moving its base branch. */
  mergePullRequest(number: number): string {
    const pr = this.existing(number);
    if (pr.state !== "open") throw new Error(`#${number} is not open`);
    return this.mergeOpen(pr, {
      sha: this.branches.get(pr.head) ?? pr.headSha,
      method: "merge",
      title: `Merge pull request #${number}`,
    });
  }

  /** Merging this pull request now conflicts with its base: GitHub answers 405 "not mergeable". */
  markConflicting(number: number): void {
    this.existing(number).conflicting = true;
  }

  /** The commit statuses and check runs reported for `sha`; a pending or failed one blocks the merge. */
  setChecks(sha: string, checks: FakeCheck[]): void {
    this.checksBySha.set(sha, checks);
  }

  /**
   * The next call of `method` fails with `status` and GitHub's `message` instead of being answered; status 0 is
   * GitHub not reached. Queued failures are used once each, in order.
   */
  failNext(method: FakeGitHubMethod, status: number, message?: string): void {
    this.faults.push({
      method,
      refusal: new Refusal(
        status,
        message ??
          (status === 0 ? "fetch failed" : (STATUS_CODES[status] ?? "Error")),
      ),
    });
  }

  callsTo(method: FakeGitHubMethod): FakeGitHubCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  // --- the port ---

  defaultBranch(): Promise<string> {
    return this.answer(
      "defaultBranch",
      [],
      "reading the repository",
      () => this.defaultBranchName,
    );
  }

  pullRequestsFor(branch: string, base: string): Promise<PullRequest[]> {
    return this.answer(
      "pullRequestsFor",
      [branch, base],
      "listing pull requests",
      () =>
        [...this.pulls.values()]
          .filter((pr) => pr.head === branch && pr.base === base)
          .sort((a, b) => b.number - a.number)
          .map((pr) => this.view(pr)),
    );
  }

  createPullRequest(input: {
    title: string;
    body: string;
    head: string;
    base: string;
  }): Promise<PullRequest> {
    return this.answer(
      "createPullRequest",
      [input],
      "opening the pull request",
      () => {
        if (input.title === "") throw new Refusal(422, "Validation Failed");
        return this.view(this.open(input));
      },
    );
  }

  getPullRequest(number: number): Promise<PullRequest> {
    return this.answer(
      "getPullRequest",
      [number],
      `reading pull request #${number}`,
      () => {
        const pr = this.pulls.get(number);
        if (!pr) throw new Refusal(404, "Not Found");
        return this.view(pr);
      },
    );
  }

  updatePullRequest(
    number: number,
    input: { body: string },
  ): Promise<PullRequest> {
    return this.answer(
      "updatePullRequest",
      [number, input],
      `updating pull request #${number}`,
      () => {
        const pr = this.pulls.get(number);
        if (!pr) throw new Refusal(404, "Not Found");
        pr.body = input.body;
        return this.view(pr);
      },
    );
  }

  checks(sha: string): Promise<{ pending: string[]; failed: string[] }> {
    return this.answer("checks", [sha], "reading the checks", () => {
      const list = this.checksBySha.get(sha) ?? [];
      return {
        pending: list.filter((c) => c.state === "pending").map((c) => c.name),
        failed: list.filter((c) => c.state === "failure").map((c) => c.name),
      };
    });
  }

  merge(
    number: number,
    input: Parameters<GitHubPort["merge"]>[1],
  ): Promise<string> {
    return this.answer(
      "merge",
      [number, input],
      `merging pull request #${number}`,
      () => {
        const pr = this.pulls.get(number);
        if (!pr) throw new Refusal(404, "Not Found");
        if (pr.state !== "open")
          throw new Refusal(405, "Pull Request is not mergeable");
        return this.mergeOpen(pr, input);
      },
    );
  }

  /** The archive reads no file; doctor's CI check runs against the local GitHub server instead. */
  readFile(): Promise<string | null> {
    return Promise.resolve(null);
  }

  branchRules(): Promise<BranchRule[]> {
    return Promise.resolve([]);
  }

  // The merge policies' calls (reviews, GraphQL) are tested against the local GitHub server, which checks them
  // against GitHub's schemas; the fake only serves `archive.merge: auto`.
  reviews(): Promise<PullRequestReview[]> {
    return Promise.reject(
      new Error("GitHubFake serves archive.merge auto only"),
    );
  }

  mergeState(): Promise<PullRequestMergeState> {
    return Promise.reject(
      new Error("GitHubFake serves archive.merge auto only"),
    );
  }

  enableAutoMerge(): Promise<void> {
    return Promise.reject(
      new Error("GitHubFake serves archive.merge auto only"),
    );
  }

  enqueue(): Promise<void> {
    return Promise.reject(
      new Error("GitHubFake serves archive.merge auto only"),
    );
  }

  deleteBranch(branch: string): Promise<"deleted" | "missing"> {
    // The port reads GitHub's 422 "Reference does not exist" as a branch already gone.
    return this.answer(
      "deleteBranch",
      [branch],
      `deleting the branch ${branch}`,
      () => {
        if (!this.branches.delete(branch))
          throw new Refusal(422, "Reference does not exist");
        return "deleted" as const;
      },
    ).catch((error: unknown) => {
      if (error instanceof GitHubError && error.status === 422)
        return "missing" as const;
      throw error;
    });
  }

  // --- what GitHub does behind the port ---

  private answer<T>(
    method: FakeGitHubMethod,
    args: unknown[],
    what: string,
    handle: () => T,
  ): Promise<T> {
    const call: FakeGitHubCall = { method, args, failedWith: null };
    this.calls.push(call);
    try {
      const fault = this.faults.findIndex((f) => f.method === method);
      if (fault !== -1) throw this.faults.splice(fault, 1)[0]!.refusal;
      return Promise.resolve(handle());
    } catch (error) {
      if (!(error instanceof Refusal))
        return Promise.reject(
          error instanceof Error ? error : new Error(String(error)),
        );
      call.failedWith = error.status;
      return Promise.reject(
        new GitHubError(
          error.status,
          error.status === 0
            ? `${what} failed: GitHub could not be reached (${error.message})`
            : `${what} failed: GitHub answered ${error.status}: ${error.message}`,
        ),
      );
    }
  }

  private open(input: {
    title: string;
    body: string;
    head: string;
    base: string;
  }): FakePullRequest {
    const headSha = this.branches.get(input.head);
    const baseSha = this.branches.get(input.base);
    if (headSha === undefined || baseSha === undefined)
      throw new Refusal(422, "Validation Failed");
    const { owner } = this.repository;
    const duplicate = [...this.pulls.values()].some(
      (pr) =>
        pr.state === "open" && pr.head === input.head && pr.base === input.base,
    );
    if (duplicate)
      throw new Refusal(
        422,
        `Validation Failed: A pull request already exists for ${owner}:${input.head}.`,
      );
    // The fake knows commits only by name: a head at the base's commit is the one "no commits" case it can see.
    if (headSha === baseSha)
      throw new Refusal(
        422,
        `Validation Failed: No commits between ${input.base} and ${input.head}`,
      );
    const pr: FakePullRequest = {
      number: this.pulls.size + 1,
      title: input.title,
      body: input.body,
      head: input.head,
      base: input.base,
      state: "open",
      headSha,
      merged: null,
      conflicting: false,
    };
    this.pulls.set(pr.number, pr);
    return pr;
  }

  /** GitHub's checks before a merge, in the order harness/github-server/merge-pull.ts makes them. */
  private mergeOpen(
    pr: FakePullRequest,
    input: { sha: string; method: string; title: string },
  ): string {
    const head = this.branches.get(pr.head);
    const base = this.branches.get(pr.base);
    if (head === undefined || base === undefined)
      throw new Refusal(
        422,
        `Validation Failed: The ${head === undefined ? "head" : "base"} branch ${head === undefined ? pr.head : pr.base} does not exist`,
      );
    pr.headSha = head;
    if (input.sha !== head)
      throw new Refusal(
        409,
        "Head branch was modified. Review and try the merge again.",
      );
    const blocking = (this.checksBySha.get(head) ?? []).find(
      (check) => check.state !== "success",
    );
    if (blocking)
      throw new Refusal(
        405,
        `Required status check "${blocking.name}" is ${blocking.state === "pending" ? "expected" : "failing"}.`,
      );
    if (pr.conflicting) throw new Refusal(405, "Pull Request is not mergeable");
    this.merges += 1;
    const sha = `${"fe".repeat(16)}${this.merges.toString(16).padStart(8, "0")}`;
    this.branches.set(pr.base, sha);
    pr.state = "closed";
    pr.merged = {
      head,
      commit: sha,
      method: input.method,
      title: input.title,
    };
    return sha;
  }

  private existing(number: number): FakePullRequest {
    const pr = this.pulls.get(number);
    if (!pr) throw new Error(`no pull request #${number}`);
    return pr;
  }

  private view(pr: FakePullRequest): PullRequest {
    if (pr.state === "open")
      pr.headSha = this.branches.get(pr.head) ?? pr.headSha;
    const { owner, repo } = this.repository;
    return {
      number: pr.number,
      url: `https://github.com/${owner}/${repo}/pull/${pr.number}`,
      state: pr.state,
      merged: pr.merged !== null,
      headSha: pr.headSha,
      headRef: pr.head,
      baseRef: pr.base,
    };
  }
}
