import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { JsonObject, Operation } from "./openapi.ts";
import { DOCS_URL, error, type Reply } from "./replies.ts";
import {
  decodePath,
  matchRoute,
  type MatchedRoute,
  type ParsedRequest,
  type Route,
} from "./routing.ts";
import {
  checkQuery,
  checkRequestBody,
  checkResponse,
} from "./schema-checks.ts";
import type { FaultQueue } from "./scripted-faults.ts";
import type { ServerState } from "./server-state.ts";

const API_VERSION = "2022-11-28";

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

export interface ListenerOptions {
  state: ServerState;
  routes: readonly Route[];
  faults: FaultQueue;
  /** When set, requests must carry it (`token <t>` or `Bearer <t>`). */
  token: string | undefined;
  requests: RecordedRequest[];
  violations: string[];
  /** POST /graphql, GitHub's GraphQL endpoint. */
  graphql: (body: unknown) => Promise<Reply>;
  /** What GitHub does on its own between requests (auto-merge, the merge queue). */
  settle: () => Promise<void>;
}

export interface Listener {
  url: string;
  close(): Promise<void>;
}

/** Error bodies link the operation's documentation, as GitHub's do. */
function withOperationDocs(reply: Reply, operation: Operation): Reply {
  const body = reply.body as JsonObject | undefined;
  if (body?.documentation_url !== DOCS_URL || !operation.externalDocs)
    return reply;
  return {
    ...reply,
    body: { ...body, documentation_url: operation.externalDocs.url },
  };
}

/** Listens on 127.0.0.1 on a free port, so tests never expose the server beyond this machine. */
export async function listenOnLoopback(
  options: ListenerOptions,
): Promise<Listener> {
  const { state, routes, faults, requests, violations } = options;
  let served = 0;

  const isAuthorized = (header: string | undefined): boolean => {
    if (options.token === undefined) return true;
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header ?? "");
    return match?.[1] === options.token;
  };

  const decide = async (
    req: IncomingMessage,
    method: string,
    path: string,
    request: ParsedRequest & { malformed: boolean },
    matched: MatchedRoute | undefined,
  ): Promise<Reply> => {
    const fault = faults.take(method, path);
    if (fault) return fault;
    if (!isAuthorized(req.headers.authorization))
      return error(
        401,
        req.headers.authorization
          ? "Bad credentials"
          : "Requires authentication",
      );
    if (request.malformed) return error(400, "Problems parsing JSON");
    if (!matched && method === "POST" && path === "/graphql")
      return options.graphql(request.body);
    if (!matched) return error(404, "Not Found");
    violations.push(...checkQuery(matched, request.query));
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
    await options.settle();
    const matched = matchRoute(state, routes, method, target.pathname);
    const reply = await decide(req, method, path, request, matched);
    if (matched) violations.push(...checkResponse(matched, reply));
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
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      return new Promise((resolve, reject) => {
        server.close((cause) => (cause ? reject(cause) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
