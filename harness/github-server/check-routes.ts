import { example } from "./openapi.ts";
import {
  apiRepo,
  firstOf,
  htmlRepo,
  minimalRepositoryView,
  relocate,
  repoReplacements,
} from "./payloads.ts";
import { error, type Reply } from "./replies.ts";
import type { ServerState } from "./server-state.ts";

// The combined status and the check runs of a ref: each check set with `setChecks` reports as both, as a CI
// that posts a commit status and a check run does.

function commitNotFound(ref: string): Reply {
  return error(422, `No commit found for SHA: ${ref}`);
}

export async function combinedStatus(
  state: ServerState,
  ref: string,
): Promise<Reply> {
  const sha = await state.git.resolveCommit(ref);
  if (!sha) return commitNotFound(ref);
  const template = firstOf(example("combined-commit-status").statuses);
  const statuses = (state.checks.get(sha) ?? []).map((check) => ({
    ...template,
    url: `${apiRepo(state)}/statuses/${sha}`,
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
  const combined = states.has("failure")
    ? "failure"
    : states.has("pending")
      ? "pending"
      : "success";
  return {
    status: 200,
    body: {
      ...example("combined-commit-status"),
      state: combined,
      statuses,
      sha,
      total_count: statuses.length,
      repository: minimalRepositoryView(state),
      commit_url: `${apiRepo(state)}/commits/${sha}`,
      url: `${apiRepo(state)}/commits/${sha}/status`,
    },
  };
}

export async function checkRuns(
  state: ServerState,
  ref: string,
  query: Record<string, string>,
): Promise<Reply> {
  const { repo } = state;
  const sha = await state.git.resolveCommit(ref);
  if (!sha) return commitNotFound(ref);
  const template = relocate(
    firstOf(example("check-run-paginated").check_runs),
    repoReplacements(state),
  );
  const openPulls = [...state.pulls.values()].filter(
    (pr) => pr.state === "open" && pr.headSha === sha,
  );
  const runs = (state.checks.get(sha) ?? [])
    .map((check) => {
      const completed = check.state !== "pending";
      return {
        ...template,
        id: check.id,
        node_id: Buffer.from(`008:CheckRun${check.id}`).toString("base64"),
        head_sha: sha,
        external_id: "",
        url: `${apiRepo(state)}/check-runs/${check.id}`,
        html_url: `${htmlRepo(state)}/runs/${check.id}`,
        details_url: `${htmlRepo(state)}/runs/${check.id}`,
        status: completed ? "completed" : "in_progress",
        conclusion: completed ? check.state : null,
        started_at: check.at,
        completed_at: completed ? check.at : null,
        output: {
          title: null,
          summary: null,
          text: null,
          annotations_count: 0,
          annotations_url: `${apiRepo(state)}/check-runs/${check.id}/annotations`,
        },
        name: check.name,
        check_suite: { id: check.id },
        pull_requests: openPulls.map((pr) => ({
          url: `${apiRepo(state)}/pulls/${pr.number}`,
          id: 1000 + pr.number,
          number: pr.number,
          head: {
            ref: pr.head,
            sha: pr.headSha,
            repo: { id: 1296269, url: apiRepo(state), name: repo },
          },
          base: {
            ref: pr.base,
            sha: pr.baseSha,
            repo: { id: 1296269, url: apiRepo(state), name: repo },
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
}
