import { example, type JsonObject } from "./openapi.ts";
import { assessMergeability, refreshPull } from "./pull-state.ts";
import {
  timestamp,
  type PullRequestState,
  type ServerState,
} from "./server-state.ts";

// The response bodies: GitHub's own examples with the live fields written over them, so every field the schema
// requires is present without listing them all here.

const HTML_ROOT = "https://github.com";
const EXAMPLE_API_ROOT = "https://api.github.com";

/** Deep copy of `value` with every string's occurrences of each `[from, to]` pair replaced, in order. */
export function relocate<T>(value: T, replacements: [string, string][]): T {
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

export function firstOf(items: unknown): JsonObject {
  return (items as JsonObject[])[0]!;
}

export function apiRepo(state: ServerState): string {
  return `${state.url}/repos/${state.owner}/${state.repo}`;
}

export function htmlRepo(state: ServerState): string {
  return `${HTML_ROOT}/${state.owner}/${state.repo}`;
}

export function repoReplacements(state: ServerState): [string, string][] {
  return [
    [EXAMPLE_API_ROOT, state.url],
    ["octocat/Hello-World", `${state.owner}/${state.repo}`],
    ["github/hello-world", `${state.owner}/${state.repo}`],
  ];
}

function userView(state: ServerState): JsonObject {
  return {
    ...relocate(example("pull-request").user as JsonObject, [
      [EXAMPLE_API_ROOT, state.url],
      ["octocat", state.owner],
    ]),
    login: state.owner,
    id: 1,
  };
}

function repositoryFields(state: ServerState): JsonObject {
  const { owner, repo, startedAt } = state;
  const openPulls = [...state.pulls.values()].filter(
    (pr) => pr.state === "open",
  ).length;
  return {
    id: 1296269,
    node_id: Buffer.from(`010:Repository${owner}/${repo}`).toString("base64"),
    name: repo,
    full_name: `${owner}/${repo}`,
    owner: userView(state),
    private: false,
    html_url: htmlRepo(state),
    description: null,
    fork: false,
    url: apiRepo(state),
    homepage: null,
    language: null,
    mirror_url: null,
    default_branch: state.defaultBranch,
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
}

function repositoryView(state: ServerState): JsonObject {
  const base = relocate(
    (example("pull-request").head as JsonObject).repo as JsonObject,
    repoReplacements(state),
  );
  return { ...base, ...repositoryFields(state) };
}

export function fullRepositoryView(state: ServerState): JsonObject {
  const view: JsonObject = {
    ...relocate(
      example("full-repository-default-response"),
      repoReplacements(state),
    ),
    ...repositoryFields(state),
    network_count: 0,
    subscribers_count: 0,
  };
  // Not a fork, a template copy or an organization's repository.
  for (const key of ["parent", "source", "template_repository", "organization"])
    delete view[key];
  return view;
}

export function minimalRepositoryView(state: ServerState): JsonObject {
  const base = relocate(
    example("combined-commit-status").repository as JsonObject,
    repoReplacements(state),
  );
  const fields = repositoryFields(state);
  return Object.fromEntries(
    Object.keys(base).map((key) => [
      key,
      key in fields ? fields[key] : base[key],
    ]),
  );
}

function branchView(
  state: ServerState,
  branch: string,
  sha: string,
): JsonObject {
  return {
    label: `${state.owner}:${branch}`,
    ref: branch,
    sha,
    user: userView(state),
    repo: repositoryView(state),
  };
}

function pullFields(state: ServerState, pr: PullRequestState): JsonObject {
  const api = `${apiRepo(state)}/pulls/${pr.number}`;
  const issue = `${apiRepo(state)}/issues/${pr.number}`;
  const html = `${htmlRepo(state)}/pull/${pr.number}`;
  const statuses = `${apiRepo(state)}/statuses/${pr.headSha}`;
  const reviewComment = `${apiRepo(state)}/pulls/comments{/number}`;
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
    user: userView(state),
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
    head: branchView(state, pr.head, pr.headSha),
    base: branchView(state, pr.base, pr.baseSha),
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
}

/** The list's shape: no mergeability or diff counts, which GitHub computes only for a single pull request. */
export function pullSimpleView(
  state: ServerState,
  pr: PullRequestState,
): JsonObject {
  return {
    ...firstOf(example("pull-request-simple-items")),
    ...pullFields(state, pr),
  };
}

export async function pullView(
  state: ServerState,
  pr: PullRequestState,
): Promise<JsonObject> {
  const { git } = state;
  const refs = await refreshPull(state, pr);
  const mergeability =
    pr.state === "open" && refs.head && refs.base
      ? await assessMergeability(state, pr)
      : { mergeable: null, state: "unknown" };
  const stat = await git.diffStat(pr.baseSha, pr.headSha);
  return {
    ...example("pull-request"),
    ...pullFields(state, pr),
    merged: pr.mergedAt !== null,
    mergeable: mergeability.mergeable,
    rebaseable: mergeability.mergeable,
    mergeable_state: mergeability.state,
    merged_by: pr.mergedAt !== null ? userView(state) : null,
    comments: 0,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: await git.countCommits(pr.baseSha, pr.headSha),
    additions: stat.additions,
    deletions: stat.deletions,
    changed_files: stat.files,
  };
}
