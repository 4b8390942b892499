import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  createBareRepository,
  isPlainRefName,
} from "./github-server/bare-repository.ts";
import {
  describeErrors,
  example,
  loadValidation,
  resolveRef,
  validatorAt,
  pointerSegment,
  type JsonObject,
  type Operation,
  type ParameterObject,
  type ResponseObject,
} from "./github-server/openapi.ts";

export interface GitHubServerOptions {
  /** Absolute path of the bare repository (`git init --bare -b main`). */
  bare: string;
  owner: string;
  repo: string;
  /** Reported as the repository's default branch (default "main"). */
  defaultBranch?: string;
  /** When set, requests must carry `authorization: token <t>` or `Bearer <t>`; otherwise 401 with GitHub's error shape. */
  token?: string;
}

/** One request as the server saw it, with the status it answered. */
export interface RecordedRequest {
  method: string;
  /** Percent-decoded, without the query string. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body, or null when the body was empty. */
  body: unknown;
  status: number;
}

/** A commit status and check run of the same name, as `setChecks` reports it. */
export interface GitHubCheck {
  name: string;
  state: "pending" | "success" | "failure";
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
  /** Closes a PR as a person would on github.com (state closed, not merged). */
  closePullRequest(number: number): void;
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

const DOCS_URL = "https://docs.github.com/rest";
const HTML_ROOT = "https://github.com";
const EXAMPLE_API_ROOT = "https://api.github.com";
const API_VERSION = "2022-11-28";

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A documented operation the server implements, found by matching the raw (still percent-encoded) path. */
interface Route {
  method: string;
  pattern: RegExp;
  template: string;
  handle(params: string[], request: ParsedRequest): Promise<Reply>;
}

interface ParsedRequest {
  query: Record<string, string>;
  body: unknown;
}

interface MatchedRoute {
  route: Route;
  operation: Operation;
  pointer: string;
  params: string[];
}

interface PullRequestState {
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
}

interface StoredCheck extends GitHubCheck {
  id: number;
  at: string;
}

interface Fault {
  method: string;
  path: RegExp;
  reply: Reply;
}

function timestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Deep copy of `value` with every string's occurrences of each `[from, to]` pair replaced, in order. */
function relocate<T>(value: T, replacements: [string, string][]): T {
  if (typeof value === "string")
    return replacements.reduce(
      (text, [from, to]) => text.replaceAll(from, to),
      value as string,
    ) as T;
  if (Array.isArray(value))
    return value.map((item: unknown) => relocate(item, replacements)) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      relocate(item, replacements),
    ]),
  ) as T;
}

function firstOf(items: unknown): JsonObject {
  return (items as JsonObject[])[0]!;
}

/**
 * Starts a GitHub-compatible HTTP server on 127.0.0.1 for Octokit (`baseUrl: server.url`). It serves repos/get,
 * pulls create/list/get/merge, git/delete-ref, the combined status and the check runs of a ref, performs merges with
 * real git in `options.bare`, and checks every request and response against GitHub's OpenAPI description.
 */
export async function startGitHubServer(
  options: GitHubServerOptions,
): Promise<GitHubServer> {
  loadValidation();
  const { owner, repo } = options;
  const defaultBranch = options.defaultBranch ?? "main";
  const git = createBareRepository(options.bare);
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const pulls = new Map<number, PullRequestState>();
  const checks = new Map<string, StoredCheck[]>();
  const faults: Fault[] = [];
  const startedAt = timestamp();
  let nextCheckId = 1;
  let served = 0;
  let url = "";

  const apiRepo = () => `${url}/repos/${owner}/${repo}`;
  const htmlRepo = `${HTML_ROOT}/${owner}/${repo}`;
  const repoReplacements = (): [string, string][] => [
    [EXAMPLE_API_ROOT, url],
    ["octocat/Hello-World", `${owner}/${repo}`],
    ["github/hello-world", `${owner}/${repo}`],
  ];

  const error = (
    status: number,
    message: string,
    extra: JsonObject = {},
  ): Reply => ({
    status,
    body: {
      message,
      ...extra,
      documentation_url: DOCS_URL,
      status: `${status}`,
    },
  });
  const validationFailed = (errors: JsonObject[]): Reply =>
    error(422, "Validation Failed", { errors });

  // --- payloads: GitHub's examples with the live fields written over them ---

  const userView = (): JsonObject => ({
    ...relocate(example("pull-request").user as JsonObject, [
      [EXAMPLE_API_ROOT, url],
      ["octocat", owner],
    ]),
    login: owner,
    id: 1,
  });

  const repositoryFields = (): JsonObject => {
    const openPulls = [...pulls.values()].filter(
      (pr) => pr.state === "open",
    ).length;
    return {
      id: 1296269,
      node_id: Buffer.from(`010:Repository${owner}/${repo}`).toString("base64"),
      name: repo,
      full_name: `${owner}/${repo}`,
      owner: userView(),
      private: false,
      html_url: htmlRepo,
      description: null,
      fork: false,
      url: apiRepo(),
      homepage: null,
      language: null,
      mirror_url: null,
      default_branch: defaultBranch,
      forks_count: 0,
      forks: 0,
      stargazers_count: 0,
      watchers_count: 0,
      watchers: 0,
      open_issues_count: openPulls,
      open_issues: openPulls,
      topics: [],
      license: null,
      archived: false,
      disabled: false,
      visibility: "public",
      created_at: startedAt,
      updated_at: startedAt,
      pushed_at: timestamp(),
    };
  };

  const repositoryView = (): JsonObject => {
    const base = relocate(
      (example("pull-request").head as JsonObject).repo as JsonObject,
      repoReplacements(),
    );
    return { ...base, ...repositoryFields() };
  };

  const fullRepositoryView = (): JsonObject => {
    const view: JsonObject = {
      ...relocate(
        example("full-repository-default-response"),
        repoReplacements(),
      ),
      ...repositoryFields(),
      network_count: 0,
      subscribers_count: 0,
    };
    // Not a fork, a template copy or an organization's repository.
    for (const key of [
      "parent",
      "source",
      "template_repository",
      "organization",
    ])
      delete view[key];
    return view;
  };

  const minimalRepositoryView = (): JsonObject => {
    const base = relocate(
      example("combined-commit-status").repository as JsonObject,
      repoReplacements(),
    );
    const fields = repositoryFields();
    return Object.fromEntries(
      Object.keys(base).map((key) => [
        key,
        key in fields ? fields[key] : base[key],
      ]),
    );
  };

  const branchView = (branch: string, sha: string): JsonObject => ({
    label: `${owner}:${branch}`,
    ref: branch,
    sha,
    user: userView(),
    repo: repositoryView(),
  });

  const pullFields = (pr: PullRequestState): JsonObject => {
    const api = `${apiRepo()}/pulls/${pr.number}`;
    const issue = `${apiRepo()}/issues/${pr.number}`;
    const html = `${htmlRepo}/pull/${pr.number}`;
    const statuses = `${apiRepo()}/statuses/${pr.headSha}`;
    const reviewComment = `${apiRepo()}/pulls/comments{/number}`;
    return {
      url: api,
      id: 1000 + pr.number,
      node_id: Buffer.from(`011:PullRequest${1000 + pr.number}`).toString(
        "base64",
      ),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issue,
      commits_url: `${api}/commits`,
      review_comments_url: `${api}/comments`,
      review_comment_url: reviewComment,
      comments_url: `${issue}/comments`,
      statuses_url: statuses,
      number: pr.number,
      state: pr.state,
      locked: false,
      title: pr.title,
      user: userView(),
      body: pr.body,
      labels: [],
      milestone: null,
      active_lock_reason: null,
      created_at: pr.createdAt,
      updated_at: pr.updatedAt,
      closed_at: pr.closedAt,
      merged_at: pr.mergedAt,
      merge_commit_sha: pr.mergeCommitSha,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: branchView(pr.head, pr.headSha),
      base: branchView(pr.base, pr.baseSha),
      _links: {
        self: { href: api },
        html: { href: html },
        issue: { href: issue },
        comments: { href: `${issue}/comments` },
        review_comments: { href: `${api}/comments` },
        review_comment: { href: reviewComment },
        commits: { href: `${api}/commits` },
        statuses: { href: statuses },
      },
      author_association: "OWNER",
      auto_merge: null,
      draft: pr.draft,
    };
  };

  const pullSimpleView = (pr: PullRequestState): JsonObject => ({
    ...firstOf(example("pull-request-simple-items")),
    ...pullFields(pr),
  });

  const pullView = async (pr: PullRequestState): Promise<JsonObject> => {
    const refs = await refreshPull(pr);
    const mergeability =
      pr.state === "open" && refs.head && refs.base
        ? await assessMergeability(pr)
        : { mergeable: null, state: "unknown" };
    const stat = await git.diffStat(pr.baseSha, pr.headSha);
    return {
      ...example("pull-request"),
      ...pullFields(pr),
      merged: pr.mergedAt !== null,
      mergeable: mergeability.mergeable,
      rebaseable: mergeability.mergeable,
      mergeable_state: mergeability.state,
      merged_by: pr.mergedAt !== null ? userView() : null,
      comments: 0,
      review_comments: 0,
      maintainer_can_modify: false,
      commits: await git.countCommits(pr.baseSha, pr.headSha),
      additions: stat.additions,
      deletions: stat.deletions,
      changed_files: stat.files,
    };
  };

  // --- pull request state ---

  /** While open, a PR follows its branches; closed or merged, it keeps the shas it had. */
  const refreshPull = async (
    pr: PullRequestState,
  ): Promise<{ head: boolean; base: boolean }> => {
    if (pr.state !== "open") return { head: true, base: true };
    const [head, base] = await Promise.all([
      git.resolveBranch(pr.head),
      git.resolveBranch(pr.base),
    ]);
    if (head) pr.headSha = head;
    if (base) pr.baseSha = base;
    return { head: head !== undefined, base: base !== undefined };
  };

  const blockingCheck = (sha: string): StoredCheck | undefined =>
    (checks.get(sha) ?? []).find((check) => check.state !== "success");

  const assessMergeability = async (
    pr: PullRequestState,
  ): Promise<{ mergeable: boolean; state: string }> => {
    if (!(await git.mergeTree(pr.baseSha, pr.headSha)))
      return { mergeable: false, state: "dirty" };
    if (pr.draft) return { mergeable: true, state: "draft" };
    if (blockingCheck(pr.headSha)) return { mergeable: true, state: "blocked" };
    return { mergeable: true, state: "clean" };
  };

  const findPull = (raw: string): PullRequestState | undefined =>
    /^\d+$/.test(raw) ? pulls.get(Number(raw)) : undefined;

  // --- handlers ---

  const getRepository = (): Promise<Reply> =>
    Promise.resolve({ status: 200, body: fullRepositoryView() });

  const listPulls = async (query: Record<string, string>): Promise<Reply> => {
    const state = query.state ?? "open";
    let found = [...pulls.values()].filter(
      (pr) => state === "all" || pr.state === state,
    );
    // GitHub ignores a head filter without the "owner:" prefix.
    const head = query.head?.split(/:(.*)/s);
    if (head && head.length > 1)
      found = found.filter(
        (pr) =>
          head[0]!.toLowerCase() === owner.toLowerCase() && pr.head === head[1],
      );
    if (query.base !== undefined)
      found = found.filter((pr) => pr.base === query.base);
    const sort = query.sort ?? "created";
    const direction = query.direction ?? (sort === "created" ? "desc" : "asc");
    found.sort((a, b) =>
      sort === "updated"
        ? a.updatedAt.localeCompare(b.updatedAt) || a.number - b.number
        : a.number - b.number,
    );
    if (direction === "desc") found.reverse();
    const perPage = Math.min(
      100,
      Math.max(1, Number(query.per_page ?? 30) || 30),
    );
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    const lastPage = Math.max(1, Math.ceil(found.length / perPage));
    const shown = found.slice((page - 1) * perPage, page * perPage);
    for (const pr of shown) await refreshPull(pr);
    const reply: Reply = { status: 200, body: shown.map(pullSimpleView) };
    if (page < lastPage) {
      const link = (n: number, rel: string) => {
        const params = new URLSearchParams({
          ...query,
          per_page: `${perPage}`,
          page: `${n}`,
        });
        return `<${apiRepo()}/pulls?${params.toString()}>; rel="${rel}"`;
      };
      reply.headers = {
        link: `${link(page + 1, "next")}, ${link(lastPage, "last")}`,
      };
    }
    return reply;
  };

  const createPull = async (input: JsonObject): Promise<Reply> => {
    if (typeof input.title !== "string" || input.title === "")
      return validationFailed([
        { resource: "PullRequest", field: "title", code: "missing_field" },
      ]);
    const headInput = String(input.head);
    const base = String(input.base);
    const colon = headInput.indexOf(":");
    const headOwner = colon === -1 ? owner : headInput.slice(0, colon);
    const head = colon === -1 ? headInput : headInput.slice(colon + 1);
    const [headSha, baseSha] = await Promise.all([
      headOwner.toLowerCase() === owner.toLowerCase()
        ? git.resolveBranch(head)
        : Promise.resolve(undefined),
      git.resolveBranch(base),
    ]);
    if (!headSha || !baseSha)
      return validationFailed([
        {
          resource: "PullRequest",
          field: headSha ? "base" : "head",
          code: "invalid",
        },
      ]);
    const duplicate = [...pulls.values()].some(
      (pr) => pr.state === "open" && pr.head === head && pr.base === base,
    );
    if (duplicate)
      return validationFailed([
        {
          resource: "PullRequest",
          code: "custom",
          message: `A pull request already exists for ${owner}:${head}.`,
        },
      ]);
    if ((await git.countCommits(baseSha, headSha)) === 0)
      return validationFailed([
        {
          resource: "PullRequest",
          code: "custom",
          message: `No commits between ${base} and ${head}`,
        },
      ]);
    const now = timestamp();
    const pr: PullRequestState = {
      number: pulls.size + 1,
      title: input.title,
      body: typeof input.body === "string" ? input.body : null,
      head,
      base,
      draft: input.draft === true,
      state: "open",
      headSha,
      baseSha,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      mergedAt: null,
      mergeCommitSha: null,
    };
    pulls.set(pr.number, pr);
    return {
      status: 201,
      body: await pullView(pr),
      headers: { location: `${apiRepo()}/pulls/${pr.number}` },
    };
  };

  const getPull = async (number: string): Promise<Reply> => {
    const pr = findPull(number);
    if (!pr) return error(404, "Not Found");
    return { status: 200, body: await pullView(pr) };
  };

  const notMergeable = (message = "Pull Request is not mergeable"): Reply => ({
    status: 405,
    body: { message, documentation_url: DOCS_URL },
  });

  const mergePull = async (
    number: string,
    input: JsonObject,
  ): Promise<Reply> => {
    const pr = findPull(number);
    if (!pr) return error(404, "Not Found");
    if (pr.state !== "open") return notMergeable();
    const refs = await refreshPull(pr);
    if (!refs.head || !refs.base)
      return validationFailed([
        {
          resource: "PullRequest",
          field: refs.head ? "base" : "head",
          code: "invalid",
          message: `The ${refs.head ? "base" : "head"} branch ${refs.head ? pr.base : pr.head} does not exist`,
        },
      ]);
    if (typeof input.sha === "string" && input.sha !== pr.headSha)
      return {
        status: 409,
        body: {
          message: "Head branch was modified. Review and try the merge again.",
          documentation_url: DOCS_URL,
        },
      };
    if (pr.draft) return notMergeable("Pull Request is still a draft");
    const blocking = blockingCheck(pr.headSha);
    if (blocking)
      return notMergeable(
        `Required status check "${blocking.name}" is ${blocking.state === "pending" ? "expected" : "failing"}.`,
      );
    const method =
      typeof input.merge_method === "string" ? input.merge_method : "merge";
    const title =
      typeof input.commit_title === "string" ? input.commit_title : undefined;
    const body =
      typeof input.commit_message === "string"
        ? input.commit_message
        : undefined;
    const sha =
      method === "rebase"
        ? await rebaseCommits(pr)
        : await mergeCommit(pr, method === "squash", title, body);
    if (!sha)
      return notMergeable(
        method === "rebase" ? "This branch can't be rebased" : undefined,
      );
    if (!(await git.updateRef(`refs/heads/${pr.base}`, sha, pr.baseSha)))
      return {
        status: 409,
        body: {
          message: "Base branch was modified. Review and try the merge again.",
          documentation_url: DOCS_URL,
        },
      };
    const now = timestamp();
    Object.assign(pr, {
      state: "closed",
      closedAt: now,
      mergedAt: now,
      updatedAt: now,
      mergeCommitSha: sha,
    } satisfies Partial<PullRequestState>);
    return {
      status: 200,
      body: { sha, merged: true, message: "Pull Request successfully merged" },
    };
  };

  const mergerIdentity = (): Record<string, string> => ({
    GIT_AUTHOR_NAME: owner,
    GIT_AUTHOR_EMAIL: `1+${owner}@users.noreply.github.com`,
  });

  const mergeCommit = async (
    pr: PullRequestState,
    squash: boolean,
    title: string | undefined,
    body: string | undefined,
  ): Promise<string | undefined> => {
    const tree = await git.mergeTree(pr.baseSha, pr.headSha);
    if (!tree) return undefined;
    let message: string;
    if (squash) {
      const commits = await git.commitsBetween(pr.baseSha, pr.headSha);
      const bullets = await Promise.all(
        commits.map(
          async (sha) => `* ${(await git.readCommit(sha)).message.trim()}`,
        ),
      );
      message = `${title ?? `${pr.title} (#${pr.number})`}\n\n${body ?? bullets.join("\n\n")}`;
    } else {
      message = `${title ?? `Merge pull request #${pr.number} from ${owner}/${pr.head}`}\n\n${body ?? pr.title}`;
    }
    const parents = squash ? [pr.baseSha] : [pr.baseSha, pr.headSha];
    return git.commitTree(
      tree,
      parents,
      `${message.trimEnd()}\n`,
      mergerIdentity(),
    );
  };

  /** Replays each commit of the branch on the base, keeping its message and author. */
  const rebaseCommits = async (
    pr: PullRequestState,
  ): Promise<string | undefined> => {
    let current = pr.baseSha;
    for (const sha of await git.commitsBetween(pr.baseSha, pr.headSha)) {
      const commit = await git.readCommit(sha);
      const parent = commit.parents[0];
      if (!parent) return undefined;
      // git 2.39's merge-tree has no --merge-base: a scratch commit of the current tree on top of the original
      // parent makes that parent the merge base, which turns the merge into a cherry-pick.
      const ours = await git.commitTree(
        `${current}^{tree}`,
        [parent],
        "rebase\n",
      );
      const tree = await git.mergeTree(ours, sha);
      if (!tree) return undefined;
      current = await git.commitTree(tree, [current], commit.message, {
        GIT_AUTHOR_NAME: commit.author.name,
        GIT_AUTHOR_EMAIL: commit.author.email,
        GIT_AUTHOR_DATE: commit.author.date,
      });
    }
    return current === pr.baseSha ? undefined : current;
  };

  const deleteRef = async (ref: string): Promise<Reply> => {
    const full = ref.startsWith("refs/") ? ref : `refs/${ref}`;
    const sha = isPlainRefName(full)
      ? await git.resolveFullRef(full)
      : undefined;
    if (!sha || !(await git.deleteRef(full, sha)))
      return {
        status: 422,
        body: {
          message: "Reference does not exist",
          documentation_url: DOCS_URL,
        },
      };
    return { status: 204 };
  };

  const commitNotFound = (ref: string): Reply =>
    error(422, `No commit found for SHA: ${ref}`);

  const combinedStatus = async (ref: string): Promise<Reply> => {
    const sha = await git.resolveCommit(ref);
    if (!sha) return commitNotFound(ref);
    const template = firstOf(example("combined-commit-status").statuses);
    const statuses = (checks.get(sha) ?? []).map((check) => ({
      ...template,
      url: `${apiRepo()}/statuses/${sha}`,
      id: check.id,
      node_id: Buffer.from(`012:StatusContext${check.id}`).toString("base64"),
      state: check.state,
      description: `${check.name} ${check.state}`,
      target_url: null,
      context: check.name,
      created_at: check.at,
      updated_at: check.at,
    }));
    const states = new Set(statuses.map((status) => status.state));
    const state = states.has("failure")
      ? "failure"
      : states.has("pending")
        ? "pending"
        : "success";
    return {
      status: 200,
      body: {
        ...example("combined-commit-status"),
        state,
        statuses,
        sha,
        total_count: statuses.length,
        repository: minimalRepositoryView(),
        commit_url: `${apiRepo()}/commits/${sha}`,
        url: `${apiRepo()}/commits/${sha}/status`,
      },
    };
  };

  const checkRuns = async (
    ref: string,
    query: Record<string, string>,
  ): Promise<Reply> => {
    const sha = await git.resolveCommit(ref);
    if (!sha) return commitNotFound(ref);
    const template = relocate(
      firstOf(example("check-run-paginated").check_runs),
      repoReplacements(),
    );
    const openPulls = [...pulls.values()].filter(
      (pr) => pr.state === "open" && pr.headSha === sha,
    );
    const runs = (checks.get(sha) ?? [])
      .map((check) => {
        const completed = check.state !== "pending";
        return {
          ...template,
          id: check.id,
          node_id: Buffer.from(`008:CheckRun${check.id}`).toString("base64"),
          head_sha: sha,
          external_id: "",
          url: `${apiRepo()}/check-runs/${check.id}`,
          html_url: `${htmlRepo}/runs/${check.id}`,
          details_url: `${htmlRepo}/runs/${check.id}`,
          status: completed ? "completed" : "in_progress",
          conclusion: completed ? check.state : null,
          started_at: check.at,
          completed_at: completed ? check.at : null,
          output: {
            title: null,
            summary: null,
            text: null,
            annotations_count: 0,
            annotations_url: `${apiRepo()}/check-runs/${check.id}/annotations`,
          },
          name: check.name,
          check_suite: { id: check.id },
          pull_requests: openPulls.map((pr) => ({
            url: `${apiRepo()}/pulls/${pr.number}`,
            id: 1000 + pr.number,
            number: pr.number,
            head: {
              ref: pr.head,
              sha: pr.headSha,
              repo: { id: 1296269, url: apiRepo(), name: repo },
            },
            base: {
              ref: pr.base,
              sha: pr.baseSha,
              repo: { id: 1296269, url: apiRepo(), name: repo },
            },
          })),
        };
      })
      .filter(
        (run) =>
          (query.check_name === undefined || run.name === query.check_name) &&
          (query.status === undefined || run.status === query.status),
      );
    return {
      status: 200,
      body: { total_count: runs.length, check_runs: runs },
    };
  };

  const repoPath = "/repos/([^/]+)/([^/]+)";
  const routes: Route[] = [
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}$`),
      template: "/repos/{owner}/{repo}",
      handle: () => getRepository(),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/pulls$`),
      template: "/repos/{owner}/{repo}/pulls",
      handle: (_, request) => listPulls(request.query),
    },
    {
      method: "POST",
      pattern: new RegExp(`^${repoPath}/pulls$`),
      template: "/repos/{owner}/{repo}/pulls",
      handle: (_, request) => createPull(request.body as JsonObject),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/pulls/([^/]+)$`),
      template: "/repos/{owner}/{repo}/pulls/{pull_number}",
      handle: ([number]) => getPull(number!),
    },
    {
      method: "PUT",
      pattern: new RegExp(`^${repoPath}/pulls/([^/]+)/merge$`),
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/merge",
      handle: ([number], request) =>
        mergePull(number!, (request.body ?? {}) as JsonObject),
    },
    {
      method: "DELETE",
      pattern: new RegExp(`^${repoPath}/git/refs/(.+)$`),
      template: "/repos/{owner}/{repo}/git/refs/{ref}",
      handle: ([ref]) => deleteRef(ref!),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/commits/(.+)/status$`),
      template: "/repos/{owner}/{repo}/commits/{ref}/status",
      handle: ([ref]) => combinedStatus(ref!),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/commits/(.+)/check-runs$`),
      template: "/repos/{owner}/{repo}/commits/{ref}/check-runs",
      handle: ([ref], request) => checkRuns(ref!, request.query),
    },
  ];

  const matchRoute = (
    method: string,
    rawPath: string,
  ): MatchedRoute | undefined => {
    const { spec } = loadValidation();
    for (const route of routes) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(rawPath);
      if (!match) continue;
      const [routeOwner, routeRepo, ...params] = match.slice(1).map(decodePath);
      if (
        routeOwner?.toLowerCase() !== owner.toLowerCase() ||
        routeRepo?.toLowerCase() !== repo.toLowerCase()
      )
        return undefined;
      const verb = method.toLowerCase();
      const operation = spec.paths[route.template]?.[verb];
      if (!operation)
        throw new Error(
          `${method} ${route.template} is not in the OpenAPI subset`,
        );
      return {
        route,
        operation,
        pointer: `/paths/${pointerSegment(route.template)}/${verb}`,
        params,
      };
    }
    return undefined;
  };

  // --- validation against the OpenAPI description ---

  const checkQuery = (
    matched: MatchedRoute,
    query: Record<string, string>,
  ): void => {
    (matched.operation.parameters ?? []).forEach((entry, index) => {
      const { node: parameter, pointer } = resolveRef<ParameterObject>(entry);
      const value = query[parameter.name];
      if (parameter.in !== "query" || value === undefined || !parameter.schema)
        return;
      const type = parameter.schema.type;
      const coerced =
        (type === "integer" || type === "number") &&
        /^-?\d+(\.\d+)?$/.test(value)
          ? Number(value)
          : value;
      const validate = validatorAt(
        `${pointer ?? `${matched.pointer}/parameters/${index}`}/schema`,
      );
      if (!validate(coerced))
        violations.push(
          ...describeErrors(
            matched.operation.operationId,
            `request query ${parameter.name}`,
            validate.errors,
          ),
        );
    });
  };

  /** Problems with the request body; none when the operation takes no body or the body is valid. */
  const checkRequestBody = (matched: MatchedRoute, body: unknown): string[] => {
    if (!matched.operation.requestBody?.content["application/json"]?.schema)
      return [];
    const validate = validatorAt(
      `${matched.pointer}/requestBody/content/application~1json/schema`,
    );
    if (validate(body)) return [];
    return describeErrors(
      matched.operation.operationId,
      "request body",
      validate.errors,
    );
  };

  const checkResponse = (matched: MatchedRoute, reply: Reply): void => {
    const documented = matched.operation.responses[`${reply.status}`];
    if (!documented) return;
    const { node: response, pointer } = resolveRef<ResponseObject>(documented);
    if (!response.content?.["application/json"]?.schema) return;
    const validate = validatorAt(
      `${pointer ?? `${matched.pointer}/responses/${reply.status}`}/content/application~1json/schema`,
    );
    if (!validate(reply.body))
      violations.push(
        ...describeErrors(
          matched.operation.operationId,
          `response ${reply.status}`,
          validate.errors,
        ),
      );
  };

  // --- HTTP ---

  const takeFault = (method: string, path: string): Reply | undefined => {
    const index = faults.findIndex(
      (fault) => fault.method === method && fault.path.test(path),
    );
    if (index === -1) return undefined;
    return faults.splice(index, 1)[0]!.reply;
  };

  const isAuthorized = (header: string | undefined): boolean => {
    if (options.token === undefined) return true;
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header ?? "");
    return match?.[1] === options.token;
  };

  /** Error bodies link the operation's documentation, as GitHub's do. */
  const withOperationDocs = (reply: Reply, operation: Operation): Reply => {
    const body = reply.body as JsonObject | undefined;
    if (body?.documentation_url !== DOCS_URL || !operation.externalDocs)
      return reply;
    return {
      ...reply,
      body: { ...body, documentation_url: operation.externalDocs.url },
    };
  };

  const decide = async (
    req: IncomingMessage,
    method: string,
    path: string,
    request: ParsedRequest & { malformed: boolean },
    matched: MatchedRoute | undefined,
  ): Promise<Reply> => {
    const fault = takeFault(method, path);
    if (fault) return fault;
    if (!isAuthorized(req.headers.authorization))
      return error(
        401,
        req.headers.authorization
          ? "Bad credentials"
          : "Requires authentication",
      );
    if (request.malformed) return error(400, "Problems parsing JSON");
    if (!matched) return error(404, "Not Found");
    checkQuery(matched, request.query);
    const problems = checkRequestBody(matched, request.body);
    if (problems.length > 0) {
      violations.push(...problems);
      return error(422, `Invalid request.\n\n${problems.join("\n")}`);
    }
    try {
      const reply = await matched.route.handle(matched.params, request);
      return withOperationDocs(reply, matched.operation);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      violations.push(
        `${matched.operation.operationId} server error: ${message}`,
      );
      return error(500, `Server error: ${message}`);
    }
  };

  const send = (res: ServerResponse, reply: Reply): void => {
    served += 1;
    const headers: Record<string, string> = {
      "x-github-api-version-selected": API_VERSION,
      "x-github-media-type": "github.v3; format=json",
      "x-github-request-id": `0000:${served}`,
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": `${Math.max(0, 5000 - served)}`,
      "x-ratelimit-reset": `${Math.floor(Date.now() / 1000) + 3600}`,
      "x-ratelimit-used": `${served}`,
      "x-ratelimit-resource": "core",
      ...reply.headers,
    };
    if (reply.status === 204 || reply.body === undefined) {
      res.writeHead(reply.status, headers).end();
      return;
    }
    res
      .writeHead(reply.status, {
        "content-type": "application/json; charset=utf-8",
        ...headers,
      })
      .end(JSON.stringify(reply.body));
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const target = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    const path = decodePath(target.pathname);
    const request = {
      query: Object.fromEntries(target.searchParams),
      body: null as unknown,
      malformed: false,
    };
    if (text.trim() !== "") {
      try {
        request.body = JSON.parse(text);
      } catch {
        request.malformed = true;
      }
    }
    const matched = matchRoute(method, target.pathname);
    const reply = await decide(req, method, path, request, matched);
    if (matched) checkResponse(matched, reply);
    requests.push({
      method,
      path,
      query: request.query,
      body: request.body,
      status: reply.status,
    });
    send(res, reply);
  };

  // One request at a time, as if GitHub held a lock on the repository.
  let queue = Promise.resolve();
  const server = createServer((req, res) => {
    queue = queue
      .then(() => handle(req, res))
      .catch((cause: unknown) => {
        violations.push(
          `server error: ${cause instanceof Error ? cause.message : String(cause)}`,
        );
        if (!res.headersSent) send(res, error(500, "Server error"));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    violations,
    setChecks(sha, list) {
      const at = timestamp();
      checks.set(
        sha,
        list.map((check) => ({ ...check, id: nextCheckId++, at })),
      );
    },
    closePullRequest(number) {
      const pr = pulls.get(number);
      if (!pr) throw new Error(`no pull request #${number}`);
      if (pr.state !== "open") return;
      pr.headSha = git.resolveBranchSync(pr.head) ?? pr.headSha;
      pr.baseSha = git.resolveBranchSync(pr.base) ?? pr.baseSha;
      const now = timestamp();
      Object.assign(pr, { state: "closed", closedAt: now, updatedAt: now });
    },
    failNext(route, status, body, headers) {
      const match = /^([A-Za-z]+)\s+(\/\S*)$/.exec(route.trim());
      if (!match) throw new Error(`expected "METHOD /path", got "${route}"`);
      const pattern = match[2]!
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]+");
      faults.push({
        method: match[1]!.toUpperCase(),
        path: new RegExp(`^${pattern}$`),
        reply: {
          status,
          body: body ?? {
            message: STATUS_CODES[status] ?? "Error",
            documentation_url: DOCS_URL,
          },
          ...(headers ? { headers } : {}),
        },
      });
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((cause) => (cause ? reject(cause) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
