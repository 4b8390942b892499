import { checkRuns, combinedStatus } from "./check-routes.ts";
import { mergePull } from "./merge-pull.ts";
import {
  loadValidation,
  pointerSegment,
  type JsonObject,
  type Operation,
} from "./openapi.ts";
import { createPull, getPull, listPulls, updatePull } from "./pull-routes.ts";
import type { Reply } from "./replies.ts";
import { deleteRef, getRepository } from "./repository-routes.ts";
import { listReviews } from "./review-routes.ts";
import { branchRules, fileContent } from "./rule-routes.ts";
import type { ServerState } from "./server-state.ts";

/** A documented operation the server implements, found by matching the raw (still percent-encoded) path. */
export interface Route {
  method: string;
  pattern: RegExp;
  template: string;
  handle(params: string[], request: ParsedRequest): Promise<Reply>;
}

export interface ParsedRequest {
  query: Record<string, string>;
  body: unknown;
}

export interface MatchedRoute {
  route: Route;
  operation: Operation;
  /** JSON pointer of the operation in the OpenAPI subset, where its validators are compiled from. */
  pointer: string;
  params: string[];
}

export function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const repoPath = "/repos/([^/]+)/([^/]+)";

export function createRoutes(state: ServerState): Route[] {
  return [
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}$`),
      template: "/repos/{owner}/{repo}",
      handle: () => getRepository(state),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/pulls$`),
      template: "/repos/{owner}/{repo}/pulls",
      handle: (_, request) => listPulls(state, request.query),
    },
    {
      method: "POST",
      pattern: new RegExp(`^${repoPath}/pulls$`),
      template: "/repos/{owner}/{repo}/pulls",
      handle: (_, request) => createPull(state, request.body as JsonObject),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/pulls/([^/]+)$`),
      template: "/repos/{owner}/{repo}/pulls/{pull_number}",
      handle: ([number]) => getPull(state, number!),
    },
    {
      method: "PATCH",
      pattern: new RegExp(`^${repoPath}/pulls/([^/]+)$`),
      template: "/repos/{owner}/{repo}/pulls/{pull_number}",
      handle: ([number], request) =>
        updatePull(state, number!, (request.body ?? {}) as JsonObject),
    },
    {
      method: "PUT",
      pattern: new RegExp(`^${repoPath}/pulls/([^/]+)/merge$`),
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/merge",
      handle: ([number], request) =>
        mergePull(state, number!, (request.body ?? {}) as JsonObject),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/pulls/([^/]+)/reviews$`),
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
      handle: ([number], request) => listReviews(state, number!, request.query),
    },
    {
      method: "DELETE",
      pattern: new RegExp(`^${repoPath}/git/refs/(.+)$`),
      template: "/repos/{owner}/{repo}/git/refs/{ref}",
      handle: ([ref]) => deleteRef(state, ref!),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/commits/(.+)/status$`),
      template: "/repos/{owner}/{repo}/commits/{ref}/status",
      handle: ([ref]) => combinedStatus(state, ref!),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/commits/(.+)/check-runs$`),
      template: "/repos/{owner}/{repo}/commits/{ref}/check-runs",
      handle: ([ref], request) => checkRuns(state, ref!, request.query),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/rules/branches/(.+)$`),
      template: "/repos/{owner}/{repo}/rules/branches/{branch}",
      handle: ([branch]) => branchRules(state, branch!),
    },
    {
      method: "GET",
      pattern: new RegExp(`^${repoPath}/contents/(.+)$`),
      template: "/repos/{owner}/{repo}/contents/{path}",
      handle: ([path], request) => fileContent(state, path!, request.query),
    },
  ];
}

/** The route for a request to this server's repository; another repository's path matches none (a 404). */
export function matchRoute(
  state: ServerState,
  routes: readonly Route[],
  method: string,
  rawPath: string,
): MatchedRoute | undefined {
  const { spec } = loadValidation();
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(rawPath);
    if (!match) continue;
    const [routeOwner, routeRepo, ...params] = match.slice(1).map(decodePath);
    if (
      routeOwner?.toLowerCase() !== state.owner.toLowerCase() ||
      routeRepo?.toLowerCase() !== state.repo.toLowerCase()
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
}
