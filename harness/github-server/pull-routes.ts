import type { JsonObject } from "./openapi.ts";
import { apiRepo, pullSimpleView, pullView } from "./payloads.ts";
import { closePullRequest, findPull, refreshPull } from "./pull-state.ts";
import { error, validationFailed, type Reply } from "./replies.ts";
import {
  timestamp,
  type PullRequestState,
  type ServerState,
} from "./server-state.ts";

export async function listPulls(
  state: ServerState,
  query: Record<string, string>,
): Promise<Reply> {
  const { owner } = state;
  const wanted = query.state ?? "open";
  let found = [...state.pulls.values()].filter(
    (pr) => wanted === "all" || pr.state === wanted,
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
  for (const pr of shown) await refreshPull(state, pr);
  const reply: Reply = {
    status: 200,
    body: shown.map((pr) => pullSimpleView(state, pr)),
  };
  if (page < lastPage) {
    const link = (n: number, rel: string) => {
      const params = new URLSearchParams({
        ...query,
        per_page: `${perPage}`,
        page: `${n}`,
      });
      return `<${apiRepo(state)}/pulls?${params.toString()}>; rel="${rel}"`;
    };
    reply.headers = {
      link: `${link(page + 1, "next")}, ${link(lastPage, "last")}`,
    };
  }
  return reply;
}

/** GitHub refuses a pull request body longer than this many characters. */
const BODY_LIMIT = 65_536;

/** GitHub's refusal of a body over its limit, or null. */
function bodyTooLong(body: unknown): Reply | null {
  // GitHub counts characters (code points), not UTF-16 units.
  if (typeof body !== "string" || [...body].length <= BODY_LIMIT) return null;
  return validationFailed([
    {
      resource: "Issue",
      code: "custom",
      field: "body",
      message: `body is too long (maximum is ${BODY_LIMIT} characters)`,
    },
  ]);
}

export async function createPull(
  state: ServerState,
  input: JsonObject,
): Promise<Reply> {
  const { owner, git, pulls } = state;
  if (typeof input.title !== "string" || input.title === "")
    return validationFailed([
      { resource: "PullRequest", field: "title", code: "missing_field" },
    ]);
  const tooLong = bodyTooLong(input.body);
  if (tooLong) return tooLong;
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
    autoMerge: null,
    queued: null,
  };
  pulls.set(pr.number, pr);
  return {
    status: 201,
    body: await pullView(state, pr),
    headers: { location: `${apiRepo(state)}/pulls/${pr.number}` },
  };
}

export async function getPull(
  state: ServerState,
  number: string,
): Promise<Reply> {
  const pr = findPull(state, number);
  if (!pr) return error(404, "Not Found");
  return { status: 200, body: await pullView(state, pr) };
}

/** pulls/update: the title, the body and open/closed; changing the base is not served here. */
export async function updatePull(
  state: ServerState,
  number: string,
  input: JsonObject,
): Promise<Reply> {
  const pr = findPull(state, number);
  if (!pr) return error(404, "Not Found");
  if (input.base !== undefined)
    throw new Error("changing a pull request's base is not served");
  if (input.title === "")
    return validationFailed([
      { resource: "PullRequest", field: "title", code: "missing_field" },
    ]);
  const tooLong = bodyTooLong(input.body);
  if (tooLong) return tooLong;
  if (typeof input.title === "string") pr.title = input.title;
  if (input.body !== undefined)
    pr.body = typeof input.body === "string" ? input.body : null;
  if (input.state === "closed" && pr.state === "open")
    closePullRequest(state, pr.number);
  else if (input.state === "open" && pr.state === "closed") {
    if (pr.mergedAt !== null)
      return validationFailed([
        {
          resource: "PullRequest",
          code: "custom",
          message: "Cannot reopen a merged pull request",
        },
      ]);
    Object.assign(pr, { state: "open", closedAt: null });
  }
  pr.updatedAt = timestamp();
  return { status: 200, body: await pullView(state, pr) };
}
