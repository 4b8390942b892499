import type {
  ApiMessage,
  ContentBlock,
  LoggedRequest,
} from "./model-server.ts";

/** What the model was told after one of its moves, read from the request that followed it. */
export interface ModelReply {
  /** The `tool_result` of the move's tool call, or null for a move that ended the turn. */
  result: { isError: boolean; text: string } | null;
  /** Hook context that reached the model after the move (`<Event> hook additional context: …`), in order. */
  contexts: { event: string; text: string }[];
  /** Stop or SubagentStop feedback: the hook refused to let the turn end and said why. */
  feedback: string | null;
  /** Every text the model read after the move, joined (tool result, reminders, system messages). */
  text: string;
}

/**
 * The model's side of a move made in `requests[index]`: the next request of the same agent that carries the move
 * (its tool call, or its closing text), and what followed it there. Null when that agent never asked again: the
 * session or the subagent ended on this move.
 */
export function readModelReply(
  requests: readonly LoggedRequest[],
  index: number,
  closingText?: string,
): ModelReply | null {
  const played = requests[index];
  if (played === undefined) return null;
  for (const next of requests.slice(index + 1)) {
    if (next.agent !== played.agent) continue;
    const at = findMove(next.messages, played.toolUseIds, closingText);
    if (at < 0) continue;
    const after = next.messages.slice(at + 1);
    const blocks = after.flatMap(blocksOf);
    const result = blocks.find(
      (block) =>
        block.type === "tool_result" &&
        played.toolUseIds.includes(block.tool_use_id ?? ""),
    );
    const texts = blocks.map(blockText).filter((text) => text !== "");
    return {
      result: result
        ? { isError: result.is_error === true, text: blockText(result) }
        : null,
      contexts: texts.flatMap(hookContexts),
      feedback:
        texts
          .map(
            (text) =>
              /(?:Stop|SubagentStop) hook feedback:\s*([\s\S]*)/.exec(
                text,
              )?.[1],
          )
          .find((found) => found !== undefined)
          ?.replace(/\n<\/system-reminder>[\s\S]*$/, "")
          .trim() ?? null,
      text: texts.join("\n"),
    };
  }
  return null;
}

/**
 * The hook context of the latest exchange of a request: what follows its last assistant message (for the first
 * request of a session, SessionStart and UserPromptSubmit; for a resumed one, not the earlier sessions').
 */
export function contextsOf(
  request: LoggedRequest,
): { event: string; text: string }[] {
  const lastAssistant = request.messages.findLastIndex(
    (message) => message.role === "assistant",
  );
  return request.messages
    .slice(lastAssistant + 1)
    .flatMap(blocksOf)
    .map(blockText)
    .flatMap(hookContexts);
}

/**
 * The position of the assistant message that carried the move: the one with its tool calls, or the last one whose
 * text is the closing text.
 */
function findMove(
  messages: readonly ApiMessage[],
  toolUseIds: readonly string[],
  closingText: string | undefined,
): number {
  for (let at = messages.length - 1; at >= 0; at--) {
    const message = messages[at];
    if (message?.role !== "assistant") continue;
    const blocks = blocksOf(message);
    if (
      toolUseIds.length > 0
        ? blocks.some(
            (b) => b.type === "tool_use" && toolUseIds.includes(b.id ?? ""),
          )
        : closingText !== undefined &&
          blocks.some((b) => b.type === "text" && b.text === closingText)
    )
      return at;
  }
  return -1;
}

function blocksOf(message: ApiMessage): ContentBlock[] {
  return typeof message.content === "string"
    ? [{ type: "text", text: message.content }]
    : message.content;
}

function blockText(block: ContentBlock): string {
  if (block.type === "text") return block.text ?? "";
  if (block.type !== "tool_result") return "";
  const content = block.content;
  if (content === undefined) return "";
  return typeof content === "string"
    ? content
    : content.map(blockText).join("\n");
}

/**
 * Claude Code 2.1.331 sends hook context as a system message (`PostToolUse:Edit hook additional context: …`) that may
 * go on, after a blank line, with its own text (the `# Environment` section, today's date); older releases wrap the
 * same words in a `<system-reminder>` of a user message. playbook's context never holds a blank line.
 */
function hookContexts(text: string): { event: string; text: string }[] {
  const found: { event: string; text: string }[] = [];
  const pattern =
    /(\w+)(?::\w+)? hook additional context: ([\s\S]*?)(?=\n<\/system-reminder>|\n[\w:]+ hook additional context: |\n\n|$)/g;
  for (const match of text.matchAll(pattern))
    found.push({ event: match[1] ?? "", text: (match[2] ?? "").trim() });
  return found;
}
