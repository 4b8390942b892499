import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { isSandboxStartRace } from "../src/core/session/sandbox-start-race.ts";

/** One `tool_use` block the scripted model sends: Claude Code runs the tool and answers with a `tool_result`. */
export interface ScriptedToolUse {
  name: string;
  input: Record<string, unknown>;
}

/**
 * One assistant turn: text that ends the turn, or tool calls (with optional text before them). A function gets the
 * request the turn answers, for the rare turn that depends on what the model was told.
 */
export type ScriptedTurn =
  PlainTurn | ((request: LoggedRequest) => ScriptedTurn);

type PlainTurn =
  | { text: string; tools?: undefined }
  | { text?: string; tools: ScriptedToolUse[] };

/**
 * What the model answers, per agent: `main` for the session's own agent, and one queue per subagent, named as in
 * `agents`. Each request of an agent takes the next turn of its queue; a queue that runs out answers "Done.".
 */
export interface ModelScript {
  main: ScriptedTurn[];
  /** What the model answers when Claude Code compacts the conversation (`/compact`); a short summary when absent. */
  compactSummary?: string;
  /** Subagent name -> a phrase only that agent's system prompt holds (its definition's body), and its turns. */
  agents?: Record<string, { marker: string; turns: ScriptedTurn[] }>;
}

/** A content block of a message, as the Messages API carries it (only the fields tests read are typed). */
export interface ContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
}

export interface ApiMessage {
  role: "user" | "assistant" | "system";
  content: string | ContentBlock[];
}

/** One request Claude Code made, with who made it and what the server answered. */
export interface LoggedRequest {
  /**
   * `main`, a subagent's name, `compact` for the summary Claude Code asks for when it compacts the conversation, or
   * `other` for its side requests without tools.
   */
  agent: string;
  path: string;
  stream: boolean;
  model: string;
  system: string;
  messages: ApiMessage[];
  tools: string[];
  /** The index of the scripted turn that answered, or null for a default answer. */
  turn: number | null;
  /**
   * Whether the turn is its agent's previous one again: Claude Code's sandbox could not start the command it asked
   * for (another session's sandbox held the repository's `.git/config.lock`), so the model runs it again, as a model
   * reading that error does.
   */
  replay: boolean;
  /** The ids of the `tool_use` blocks the answer carried, in order. */
  toolUseIds: string[];
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>`, for `ANTHROPIC_BASE_URL`. */
  url: string;
  /** Every Messages request, in order of arrival. */
  requests: LoggedRequest[];
  /** How many turns of each queue were played. */
  played(): Record<string, number>;
  close(): Promise<void>;
}

/** The instruction Claude Code ends a compaction request with. */
const COMPACTION_REQUEST =
  "create a detailed summary of the conversation so far";

/** The text of a message's content, its blocks joined (tool results included). */
export function contentText(
  content: string | ContentBlock[] | undefined,
): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((block) =>
      block.type === "text"
        ? (block.text ?? "")
        : block.type === "tool_result"
          ? contentText(block.content)
          : "",
    )
    .join("\n");
}

/**
 * A local Anthropic Messages API on 127.0.0.1 that replays a script: Claude Code's requests are told apart by the
 * agent's system prompt and answered with that agent's next turn, streamed as server-sent events or as one JSON
 * body. Every request is logged, so a test can read what the model was actually told.
 */
export async function startModelServer(
  script: ModelScript,
  options: {
    /** Called with each request as it is answered, and its index in `requests`. */
    onRequest?: (request: LoggedRequest, index: number) => void;
  } = {},
): Promise<ModelServer> {
  const requests: LoggedRequest[] = [];
  const queues = new Map<string, { turns: ScriptedTurn[]; next: number }>([
    ["main", { turns: script.main, next: 0 }],
    ...Object.entries(script.agents ?? {}).map(
      ([name, agent]) => [name, { turns: agent.turns, next: 0 }] as const,
    ),
  ]);
  const lastTurn = new Map<string, number>();
  let messageCount = 0;
  // Tool-use ids stay unique across servers, so a resumed session never sees an id of an earlier one twice.
  const tag = randomBytes(4).toString("hex");

  const whoAsks = (
    system: string,
    tools: string[],
    messages: ApiMessage[],
  ): string => {
    // Compaction reuses the agent's system prompt and tools; only its last message tells it apart.
    if (contentText(messages.at(-1)?.content).includes(COMPACTION_REQUEST))
      return "compact";
    for (const [name, agent] of Object.entries(script.agents ?? {}))
      if (system.includes(agent.marker)) return name;
    // The session's own agent is the one that may start subagents; side requests carry no tools at all.
    return tools.length === 0 ? "other" : "main";
  };

  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      if (req.method !== "POST" || !path.startsWith("/v1/messages")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          apiError("not_found_error", `No route for ${req.method} ${path}`),
        );
        return;
      }
      let body: RequestBody;
      try {
        body = JSON.parse(raw) as RequestBody;
      } catch {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(apiError("invalid_request_error", "The body is not JSON"));
        return;
      }
      if (path === "/v1/messages/count_tokens") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
        return;
      }
      const system = systemText(body.system);
      const tools = (body.tools ?? []).map((tool) => tool.name);
      const agent = whoAsks(system, tools, body.messages);
      const logged: LoggedRequest = {
        agent,
        path,
        stream: body.stream === true,
        model: body.model,
        system,
        messages: body.messages,
        tools,
        turn: null,
        replay: false,
        toolUseIds: [],
      };
      requests.push(logged);
      const queue = queues.get(agent);
      // A retry of a request that failed on the way repeats the turn it was given, not the next one; so does a
      // command whose sandbox never started.
      const replay = sandboxNeverStarted(body.messages);
      const retry =
        Number(req.headers["x-stainless-retry-count"] ?? "0") > 0 ||
        (replay && lastTurn.has(agent));
      logged.replay = replay && lastTurn.has(agent);
      let turn: ScriptedTurn =
        agent === "compact"
          ? {
              text: `<analysis>The conversation so far.</analysis>\n<summary>${script.compactSummary ?? "The user asked for a change; the work is under way."}</summary>`,
            }
          : { text: "Done." };
      if (queue) {
        const index = retry ? (lastTurn.get(agent) ?? queue.next) : queue.next;
        const scripted = queue.turns[index];
        if (scripted !== undefined) {
          turn = scripted;
          logged.turn = index;
          lastTurn.set(agent, index);
          if (!retry) queue.next = index + 1;
        }
      }
      const resolved = resolveTurn(turn, logged);
      const sequence = `${tag}_${String(++messageCount).padStart(4, "0")}`;
      const message = toMessage(body.model, resolved, sequence);
      for (const block of message.content)
        if (block.type === "tool_use") logged.toolUseIds.push(block.id);
      options.onRequest?.(logged, requests.length - 1);
      if (body.stream === true) {
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
        });
        res.end(toEvents(message));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(message));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    played: () =>
      Object.fromEntries(
        [...queues].map(([name, queue]) => [name, queue.next]),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface RequestBody {
  model: string;
  stream?: boolean;
  system?: string | { type: string; text?: string }[];
  messages: ApiMessage[];
  tools?: { name: string }[];
}

interface AssistantMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: (
    | { type: "text"; text: string }
    | {
        type: "tool_use";
        id: string;
        name: string;
        input: Record<string, unknown>;
      }
  )[];
  stop_reason: "end_turn" | "tool_use";
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}

/** Whether the model's last tool calls were answered with Claude Code's sandbox failing to start (no command ran). */
function sandboxNeverStarted(messages: readonly ApiMessage[]): boolean {
  const lastAnswer = messages.findLastIndex((m) => m.role === "assistant");
  return messages
    .slice(lastAnswer + 1)
    .some(
      (message) =>
        Array.isArray(message.content) &&
        message.content.some(
          (block) =>
            block.type === "tool_result" &&
            block.is_error === true &&
            isSandboxStartRace(contentText(block.content)),
        ),
    );
}

function resolveTurn(turn: ScriptedTurn, request: LoggedRequest): PlainTurn {
  return typeof turn === "function"
    ? resolveTurn(turn(request), request)
    : turn;
}

function toMessage(
  model: string,
  turn: PlainTurn,
  sequence: string,
): AssistantMessage {
  const content: AssistantMessage["content"] = [];
  if (turn.text !== undefined && turn.text !== "")
    content.push({ type: "text", text: turn.text });
  (turn.tools ?? []).forEach((tool, index) =>
    content.push({
      type: "tool_use",
      id: `toolu_scripted_${sequence}_${index}`,
      name: tool.name,
      input: tool.input,
    }),
  );
  return {
    id: `msg_scripted_${sequence}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: turn.tools && turn.tools.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20 },
  };
}

/** The message as the streaming API sends it: start, each block (text or tool input as deltas), stop. */
function toEvents(message: AssistantMessage): string {
  const events: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: { ...message.usage, output_tokens: 1 },
        },
      },
    ],
  ];
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push(
        [
          "content_block_start",
          {
            type: "content_block_start",
            index,
            content_block: { type: "text", text: "" },
          },
        ],
        [
          "content_block_delta",
          {
            type: "content_block_delta",
            index,
            delta: { type: "text_delta", text: block.text },
          },
        ],
      );
    } else {
      events.push(
        [
          "content_block_start",
          {
            type: "content_block_start",
            index,
            content_block: {
              type: "tool_use",
              id: block.id,
              name: block.name,
              input: {},
            },
          },
        ],
        [
          "content_block_delta",
          {
            type: "content_block_delta",
            index,
            delta: {
              type: "input_json_delta",
              partial_json: JSON.stringify(block.input),
            },
          },
        ],
      );
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: { output_tokens: message.usage.output_tokens },
      },
    ],
    ["message_stop", { type: "message_stop" }],
  );
  return events
    .map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
    .join("");
}

function systemText(system: RequestBody["system"]): string {
  if (system === undefined) return "";
  if (typeof system === "string") return system;
  return system.map((block) => block.text ?? "").join("\n");
}

function apiError(type: string, message: string): string {
  return JSON.stringify({ type: "error", error: { type, message } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}
