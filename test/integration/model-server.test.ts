import { afterEach, describe, expect, it } from "vitest";
import {
  startModelServer,
  type ContentBlock,
  type ModelServer,
} from "../../harness/model-server.ts";

let server: ModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const MAIN_SYSTEM = [
  { type: "text", text: "You are a Claude agent." },
  { type: "text", text: "You are an agent working with the user." },
];
const REVIEWER_SYSTEM =
  "You are a Claude agent.\n# reviewer: approve or reject a playbook\n...";

async function ask(
  url: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}/v1/messages?beta=true`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({
      model: "claude-test",
      max_tokens: 1000,
      tools: [{ name: "Bash" }, { name: "Read" }],
      ...body,
    }),
  });
}

/** The events of a server-sent-event stream, in order, with their data parsed. */
function readEvents(
  text: string,
): { event: string; data: Record<string, unknown> }[] {
  return text
    .trim()
    .split("\n\n")
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split("\n");
      return {
        event: (eventLine ?? "").replace("event: ", ""),
        data: JSON.parse((dataLine ?? "").replace("data: ", "")) as Record<
          string,
          unknown
        >,
      };
    });
}

describe("the scripted model server", () => {
  it("answers each agent from its own queue, told apart by the system prompt, streamed or not", async () => {
    server = await startModelServer({
      main: [
        { tools: [{ name: "Bash", input: { command: "npm test" } }] },
        { text: "All done." },
      ],
      agents: {
        reviewer: {
          marker: "# reviewer: approve or reject",
          turns: [{ text: "Approved." }],
        },
      },
    });
    const user = [{ role: "user", content: "Add a function." }];

    const first = await ask(server.url, {
      system: MAIN_SYSTEM,
      messages: user,
      stream: true,
    });
    expect(first.headers.get("content-type")).toBe("text/event-stream");
    const events = readEvents(await first.text());
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[1]?.data["content_block"]).toMatchObject({
      type: "tool_use",
      name: "Bash",
      input: {},
    });
    expect(events[2]?.data["delta"]).toEqual({
      type: "input_json_delta",
      partial_json: JSON.stringify({ command: "npm test" }),
    });
    expect(events[4]?.data["delta"]).toMatchObject({ stop_reason: "tool_use" });

    const reviewer = await ask(server.url, {
      system: REVIEWER_SYSTEM,
      messages: user,
    });
    expect(await reviewer.json()).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "Approved." }],
      stop_reason: "end_turn",
    });

    const second = await ask(server.url, {
      system: MAIN_SYSTEM,
      messages: user,
    });
    expect(await second.json()).toMatchObject({
      content: [{ type: "text", text: "All done." }],
    });

    // A queue that ran out ends the turn; a request without tools is Claude Code's own and takes no turn.
    const extra = await ask(server.url, {
      system: MAIN_SYSTEM,
      messages: user,
    });
    expect(await extra.json()).toMatchObject({
      content: [{ type: "text", text: "Done." }],
    });
    const side = await ask(server.url, {
      system: "Write a title.",
      messages: user,
      tools: [],
    });
    expect(await side.json()).toMatchObject({
      content: [{ type: "text", text: "Done." }],
    });

    expect(server.requests.map((r) => [r.agent, r.turn, r.stream])).toEqual([
      ["main", 0, true],
      ["reviewer", 0, false],
      ["main", 1, false],
      ["main", null, false],
      ["other", null, false],
    ]);
    expect(server.requests[0]?.toolUseIds).toHaveLength(1);
    expect(server.played()).toEqual({ main: 2, reviewer: 1 });
  });

  it("repeats a turn for a retried request, and answers a compaction with a summary that takes no turn", async () => {
    server = await startModelServer({
      main: [{ text: "first" }, { text: "second" }],
      compactSummary: "p1.1 is done; p1.2 is next.",
    });
    const user = [{ role: "user", content: "Go." }];
    await ask(server.url, { system: MAIN_SYSTEM, messages: user });
    const retried = await ask(
      server.url,
      { system: MAIN_SYSTEM, messages: user },
      { "x-stainless-retry-count": "1" },
    );
    expect(await retried.json()).toMatchObject({
      content: [{ type: "text", text: "first" }],
    });
    const compaction = await ask(server.url, {
      system: MAIN_SYSTEM,
      messages: [
        ...user,
        {
          role: "user",
          content:
            "Your task is to create a detailed summary of the conversation so far.",
        },
      ],
    });
    expect(await compaction.json()).toMatchObject({
      content: [
        {
          type: "text",
          text: expect.stringContaining(
            "<summary>p1.1 is done; p1.2 is next.</summary>",
          ) as unknown,
        },
      ],
    });
    const next = await ask(server.url, { system: MAIN_SYSTEM, messages: user });
    expect(await next.json()).toMatchObject({
      content: [{ type: "text", text: "second" }],
    });
    expect(server.requests.map((r) => r.agent)).toEqual([
      "main",
      "main",
      "compact",
      "main",
    ]);
  });

  it("plays a tool call again when Claude Code's sandbox could not start its command, as a model reading the error does", async () => {
    server = await startModelServer({
      main: [
        { tools: [{ name: "Bash", input: { command: "npm test" } }] },
        { text: "Tests pass." },
      ],
    });
    const user = { role: "user", content: "Run the tests." };
    const first = (await (
      await ask(server.url, { system: MAIN_SYSTEM, messages: [user] })
    ).json()) as { content: ContentBlock[] };
    const answered = (isError: boolean, text: string) => [
      user,
      { role: "assistant", content: first.content },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: first.content[0]?.id,
            is_error: isError,
            content: text,
          },
          {
            type: "text",
            text: "<system-reminder>a hook said</system-reminder>",
          },
        ],
      },
    ];
    const again = await ask(server.url, {
      system: MAIN_SYSTEM,
      messages: answered(
        true,
        "Exit code 1\nbwrap: Can't get type of source /w/app/.git/config.lock: No such file or directory",
      ),
    });
    expect(await again.json()).toMatchObject({
      content: [{ type: "tool_use", name: "Bash" }],
    });
    const after = await ask(server.url, {
      system: MAIN_SYSTEM,
      messages: answered(false, "1 passing"),
    });
    expect(await after.json()).toMatchObject({
      content: [{ type: "text", text: "Tests pass." }],
    });
    expect(server.requests.map((r) => [r.turn, r.replay])).toEqual([
      [0, false],
      [0, true],
      [1, false],
    ]);
  });

  it("refuses what is not a Messages request with the API's error shape", async () => {
    server = await startModelServer({ main: [] });
    const missing = await fetch(`${server.url}/v1/models`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      type: "error",
      error: { type: "not_found_error" },
    });
    const broken = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error" },
    });
    expect(server.requests).toEqual([]);
  });
});
