import { randomBytes } from "node:crypto";
import { watch, type FSWatcher } from "node:fs";
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { join } from "node:path";

export interface ViewServerOptions {
  /** The project whose records, plan and state the page shows. */
  root: string;
  /** The whole page, with the token and the script's nonce; called for each page load. */
  page: (token: string, nonce: string) => string;
  /** The part of the page that changes (the inside of `<main>`), called after each change. */
  fragment: () => string;
  /**
   * The other working trees of the repository, whose playbooks the page shows too: listed at the start and again
   * each time the repository's list of worktrees (`worktreesDir`) changes.
   */
  otherRoots?: () => string[];
  /** The repository's common git folder, whose `worktrees` folder is watched for worktrees added or removed. */
  gitCommonDir?: string | null;
  /** How long to wait after a file changes before telling the page, so a burst of writes is one update. */
  settleMs?: number;
}

export interface ViewServer {
  url: string;
  token: string;
  close: () => Promise<void>;
}

/**
 * A local server for the proof page: 127.0.0.1 on a free port, a token made for this run in every URL, and the
 * `Host` and `Origin` of each request checked (another site, or a DNS name rebound to 127.0.0.1, gets 403). Changes
 * reach the page as server-sent events from file watchers on the records, the plan, `state.md` and the lock: there is
 * no polling loop, and nothing here writes.
 */
export async function startViewServer(
  options: ViewServerOptions,
): Promise<ViewServer> {
  const token = randomBytes(24).toString("base64url");
  const clients = new Set<ServerResponse>();
  let origin = "";
  const server: Server = createServer((req, res) =>
    answer(req, res, { token, origin: () => origin, clients, options }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  const watchers = watchRepository(options, () => {
    for (const res of clients) res.write("event: change\ndata: {}\n\n");
  });
  return {
    url: `${origin}/?token=${token}`,
    token,
    close: async () => {
      watchers.close();
      for (const res of clients) res.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: {
    token: string;
    origin: () => string;
    clients: Set<ServerResponse>;
    options: ViewServerOptions;
  },
): void {
  const url = new URL(req.url ?? "/", ctx.origin());
  const refuse = (status: number, why: string) => {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
    res.end(`${why}\n`);
  };
  if (req.method !== "GET")
    return refuse(405, "Only GET: the view is read-only.");
  if (req.headers.host !== ctx.origin().slice("http://".length))
    return refuse(403, "Refused: the request names another host.");
  const from = req.headers.origin;
  if (from !== undefined && from !== ctx.origin())
    return refuse(403, "Refused: the request comes from another origin.");
  if (url.searchParams.get("token") !== ctx.token)
    return refuse(
      403,
      "Refused: the URL lacks this run's token. Open the URL `playbook view` printed.",
    );
  const headers = {
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
  if (url.pathname === "/") {
    const nonce = randomBytes(16).toString("base64");
    res.writeHead(200, {
      ...headers,
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    });
    return void res.end(ctx.options.page(ctx.token, nonce));
  }
  if (url.pathname === "/fragment") {
    res.writeHead(200, {
      ...headers,
      "content-type": "text/html; charset=utf-8",
    });
    return void res.end(ctx.options.fragment());
  }
  if (url.pathname === "/events") {
    res.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream",
      connection: "keep-alive",
    });
    res.write(": connected\n\n");
    ctx.clients.add(res);
    req.on("close", () => ctx.clients.delete(res));
    return;
  }
  refuse(404, "Not found.");
}

/**
 * Watches what the page shows, in this working tree and the repository's others; `changed` runs once a burst of
 * changes has settled.
 */
function watchRepository(
  options: ViewServerOptions,
  changed: () => void,
): { close: () => void } {
  let timer: NodeJS.Timeout | null = null;
  const poke = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(changed, options.settleMs ?? 150);
  };
  const watched = new Map<string, FSWatcher[]>();
  const watchRoots = () => {
    for (const root of [options.root, ...(options.otherRoots?.() ?? [])])
      if (!watched.has(root)) watched.set(root, watchProject(root, poke));
  };
  watchRoots();
  const list: FSWatcher[] = [];
  const common = options.gitCommonDir;
  let listed = false;
  const watchList = () => {
    if (listed || !common) return;
    watchFolder(join(common, "worktrees"), false, list, () => {
      watchRoots();
      poke();
    });
    listed = list.length > 0;
  };
  watchList();
  // The first linked worktree makes the `worktrees` folder.
  if (common && !listed)
    watchFolder(common, false, list, (name) => {
      if (name !== "worktrees") return;
      watchList();
      watchRoots();
      poke();
    });
  return {
    close: () => {
      if (timer) clearTimeout(timer);
      for (const w of [...list, ...[...watched.values()].flat()]) w.close();
    },
  };
}

function watchFolder(
  path: string,
  recursive: boolean,
  into: FSWatcher[],
  onChange: (name: string | null) => void,
): void {
  try {
    const w = watch(path, { recursive }, (_event, name) =>
      onChange(typeof name === "string" ? name : null),
    );
    w.on("error", () => w.close());
    into.push(w);
  } catch {
    // A folder that does not exist yet (no plan/, no other worktree): nothing there to show.
  }
}

/** The records, the plan and state.md of one working tree. */
function watchProject(root: string, poke: () => void): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  for (const [path, recursive] of [
    [join(root, ".claude", "playbook"), true],
    [join(root, "plan"), true],
    [root, false],
  ] as const)
    watchFolder(path, recursive, watchers, (name) => {
      // The project's root: only state.md counts (the rest of the tree is the agent's work, not its proof).
      if (!recursive && name !== "state.md") return;
      // The hook's own caches, timings and sessions change on every call: not what the page shows (its refusals,
      // logs/block-reasons.log, are).
      if (
        name !== null &&
        /^(?:cache|sessions)(?:\/|$)|^logs\/(?!block-reasons\.log$)/.test(name)
      )
        return;
      poke();
    });
  return watchers;
}
