import {
  buildSchema,
  execute,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
} from "graphql";
import { readGitHubDescription } from "./github-description.ts";
import { mergePull } from "./merge-pull.ts";
import { blockingCheck, refreshPull } from "./pull-state.ts";
import type { Reply } from "./replies.ts";
import {
  timestamp,
  type PullRequestState,
  type ServerState,
} from "./server-state.ts";

// POST /graphql: GitHub's GraphQL API for the operations the merge policies use. Every request is parsed,
// validated and executed against the part of GitHub's public schema they use (test/fixtures/github/
// graphql-schema-subset.graphql, extracted by scripts/extract-github-graphql.mjs), so an unknown field, a wrong
// argument or variable type, or a field this server does not answer is a violation. GitHub's refusals (a pull
// request in clean status, no merge queue) come back as GitHub sends them: 200 with `errors`.

let schema: GraphQLSchema | undefined;

function loadSchema(): GraphQLSchema {
  schema ??= buildSchema(
    readGitHubDescription("graphql-schema-subset.graphql"),
  );
  return schema;
}

/** A refusal GitHub words itself, not a fault of the request. */
class Refusal extends Error {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

export function pullRequestNodeId(number: number): string {
  return Buffer.from(`011:PullRequest${number}`).toString("base64");
}

function pullByNodeId(state: ServerState, id: unknown): PullRequestState {
  const pr = [...state.pulls.values()].find(
    (p) => pullRequestNodeId(p.number) === id,
  );
  if (!pr)
    throw new Refusal(
      "NOT_FOUND",
      `Could not resolve to a node with the global id of '${String(id)}'`,
    );
  return pr;
}

export async function answerGraphql(
  state: ServerState,
  body: unknown,
  violations: string[],
): Promise<Reply> {
  const request = body as {
    query?: unknown;
    variables?: unknown;
    operationName?: unknown;
  } | null;
  if (typeof request?.query !== "string") {
    violations.push("graphql request without a query");
    return { status: 400, body: { message: "Problems parsing JSON" } };
  }
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (cause) {
    return fail(violations, [cause as GraphQLError]);
  }
  const invalid = validate(loadSchema(), document);
  if (invalid.length > 0) return fail(violations, invalid);
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION && !definition.name)
      violations.push("graphql operation without a name");
  const result = await execute({
    schema: loadSchema(),
    document,
    rootValue: rootFor(state),
    variableValues: (request.variables ?? {}) as Record<string, unknown>,
    ...(typeof request.operationName === "string"
      ? { operationName: request.operationName }
      : {}),
  });
  const errors = (result.errors ?? []).map((error) => {
    const refusal =
      error.originalError instanceof Refusal ? error.originalError : null;
    if (!refusal)
      violations.push(
        `graphql: ${error.message} at ${error.path?.join(".") ?? "the request"}`,
      );
    return {
      ...(refusal ? { type: refusal.type } : {}),
      path: error.path,
      locations: error.locations,
      message: error.message,
    };
  });
  return {
    status: 200,
    body:
      errors.length > 0
        ? { data: result.data ?? null, errors }
        : { data: result.data },
  };
}

function fail(violations: string[], errors: readonly GraphQLError[]): Reply {
  violations.push(...errors.map((e) => `graphql: ${e.message}`));
  return {
    status: 200,
    body: {
      errors: errors.map((e) => ({
        message: e.message,
        locations: e.locations,
      })),
    },
  };
}

function rootFor(state: ServerState): Record<string, unknown> {
  const pullNode = (pr: PullRequestState) => ({
    id: pullRequestNodeId(pr.number),
    number: pr.number,
    headRefOid: pr.headSha,
    autoMergeRequest: pr.autoMerge
      ? {
          enabledAt: pr.autoMerge.enabledAt,
          mergeMethod: pr.autoMerge.method,
        }
      : null,
    mergeQueueEntry: pr.queued
      ? { state: "QUEUED", position: 1, enqueuedAt: pr.queued.enqueuedAt }
      : null,
  });
  return {
    viewer: () => ({ login: state.viewer }),
    repository: ({ owner, name }: { owner: string; name: string }) => {
      if (
        owner.toLowerCase() !== state.owner.toLowerCase() ||
        name.toLowerCase() !== state.repo.toLowerCase()
      )
        throw new Refusal(
          "NOT_FOUND",
          `Could not resolve to a Repository with the name '${owner}/${name}'.`,
        );
      return {
        pullRequest: ({ number }: { number: number }) => {
          const pr = state.pulls.get(number);
          if (!pr)
            throw new Refusal(
              "NOT_FOUND",
              `Could not resolve to a PullRequest with the number of ${number}.`,
            );
          return pullNode(pr);
        },
      };
    },
    enablePullRequestAutoMerge: async ({
      input,
    }: {
      input: {
        pullRequestId: string;
        expectedHeadOid?: string;
        mergeMethod?: string;
      };
    }) => {
      const pr = await openPull(
        state,
        input.pullRequestId,
        input.expectedHeadOid,
      );
      if (isGreen(state, pr))
        throw new Refusal(
          "UNPROCESSABLE",
          "Pull request Pull request is in clean status",
        );
      pr.autoMerge = {
        method: input.mergeMethod ?? "MERGE",
        enabledAt: timestamp(),
      };
      return { pullRequest: pullNode(pr) };
    },
    enqueuePullRequest: async ({
      input,
    }: {
      input: { pullRequestId: string; expectedHeadOid?: string };
    }) => {
      const pr = await openPull(
        state,
        input.pullRequestId,
        input.expectedHeadOid,
      );
      if (!mergeQueueOf(state, pr.base))
        throw new Refusal(
          "UNPROCESSABLE",
          "Pull request is not in a mergeable state: the base branch has no merge queue",
        );
      pr.queued = { enqueuedAt: timestamp() };
      return { mergeQueueEntry: pullNode(pr).mergeQueueEntry };
    },
  };
}

async function openPull(
  state: ServerState,
  id: string,
  expectedHead: string | undefined,
): Promise<PullRequestState> {
  const pr = pullByNodeId(state, id);
  await refreshPull(state, pr);
  if (pr.state !== "open")
    throw new Refusal("UNPROCESSABLE", "Pull request is closed");
  if (expectedHead !== undefined && expectedHead !== pr.headSha)
    throw new Refusal(
      "UNPROCESSABLE",
      `Head sha didn't match expected head sha ${expectedHead}`,
    );
  return pr;
}

/**
 * Whether GitHub would merge the pull request now: no check on its head is pending or failed, and each check the
 * base branch's rulesets require has passed there (one not reported yet is "expected").
 */
function isGreen(state: ServerState, pr: PullRequestState): boolean {
  if (blockingCheck(state, pr.headSha)) return false;
  const passed = new Set(
    (state.checks.get(pr.headSha) ?? [])
      .filter((c) => c.state === "success")
      .map((c) => c.name),
  );
  const required = (state.branchRules.get(pr.base) ?? [])
    .filter((r) => r.type === "required_status_checks")
    .flatMap((r) => {
      const list = (r.parameters as { required_status_checks?: unknown })
        ?.required_status_checks;
      return Array.isArray(list)
        ? list.map((c) => String((c as { context?: unknown }).context))
        : [];
    });
  return required.every((name) => passed.has(name));
}

/** The merge method of `branch`'s merge queue rule (MERGE, SQUASH or REBASE), or null without one. */
function mergeQueueOf(state: ServerState, branch: string): string | null {
  const rule = (state.branchRules.get(branch) ?? []).find(
    (r) => r.type === "merge_queue",
  );
  if (!rule) return null;
  const parameters = rule.parameters as { merge_method?: unknown } | undefined;
  return typeof parameters?.merge_method === "string"
    ? parameters.merge_method
    : "MERGE";
}

/**
 * What GitHub does on its own between requests: a pull request with auto-merge on, or in a merge queue, is merged
 * once its head's checks all passed (the queue with its rule's merge method).
 */
export async function settleAutoMerges(state: ServerState): Promise<void> {
  for (const pr of state.pulls.values()) {
    if (pr.state !== "open" || (!pr.autoMerge && !pr.queued)) continue;
    await refreshPull(state, pr);
    if (!isGreen(state, pr)) continue;
    const method = pr.queued
      ? (mergeQueueOf(state, pr.base) ?? "MERGE")
      : (pr.autoMerge?.method ?? "MERGE");
    const reply = await mergePull(state, `${pr.number}`, {
      sha: pr.headSha,
      merge_method: method.toLowerCase(),
    });
    if (reply.status === 200) {
      pr.autoMerge = null;
      pr.queued = null;
    }
  }
}
