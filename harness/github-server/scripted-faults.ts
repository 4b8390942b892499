import { STATUS_CODES } from "node:http";
import { DOCS_URL, type Reply } from "./replies.ts";

// Answers queued by `failNext`, for the failures a test cannot provoke through the API itself (a 500, a rate limit).

interface Fault {
  method: string;
  path: RegExp;
  reply: Reply;
}

export interface FaultQueue {
  /** `route` is "METHOD /path", where `*` matches one path segment. */
  add(
    route: string,
    status: number,
    body?: unknown,
    headers?: Record<string, string>,
  ): void;
  /** The first queued answer for this request, removed from the queue; undefined when none matches. */
  take(method: string, path: string): Reply | undefined;
}

export function createFaultQueue(): FaultQueue {
  const faults: Fault[] = [];
  return {
    add(route, status, body, headers) {
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
    take(method, path) {
      const index = faults.findIndex(
        (fault) => fault.method === method && fault.path.test(path),
      );
      if (index === -1) return undefined;
      return faults.splice(index, 1)[0]!.reply;
    },
  };
}
