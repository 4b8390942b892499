import type { HookEvent } from "../core/guards/events.ts";

/** What the runtime wants to say for one call, before it is mapped to the event's protocol. */
export interface HookAnswer {
  /** The model reads this; the call is refused (PreToolUse) or the model is told (Post/Stop). */
  block: string | null;
  /** Facts for the model, where the event honours `additionalContext`. */
  context: string[];
  /** A short notice for the user (problems of playbook itself, e.g. an unreadable payload). */
  notice: string | null;
  /** PreToolUse: the tool input to run instead (a proof-writing command the hook ran itself shows its result). */
  updatedInput?: Record<string, unknown>;
}

export interface HookReply {
  stdout: string;
  exitCode: 0;
}

const CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
]);

const BLOCK_EVENTS: ReadonlySet<HookEvent> = new Set([
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStop",
  "UserPromptSubmit",
]);

/** Events whose `systemMessage` reaches the user (SessionEnd and PreCompact discard it). */
const NOTICE_EVENTS: ReadonlySet<HookEvent> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStop",
]);

/**
 * Maps an answer to exactly one reply that follows Claude Code's contract: always exit 0 with at most one JSON object
 * on stdout (never JSON mixed with exit 2). PreToolUse refuses with `permissionDecision: "deny"`, and says "allow"
 * only for a proof-writing command it ran itself (with `updatedInput` showing its output); otherwise it stays silent,
 * so the user's permission prompts stay; Post/Stop events use `decision: "block"`; context goes in
 * `hookSpecificOutput.additionalContext` where the event honours it. Output strings stay under Claude Code's
 * 10,000-character cap.
 */
export function toHookReply(event: HookEvent, answer: HookAnswer): HookReply {
  const reply: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  if (answer.block !== null) {
    if (event === "PreToolUse") {
      specific["permissionDecision"] = "deny";
      specific["permissionDecisionReason"] = cap(answer.block);
    } else if (BLOCK_EVENTS.has(event)) {
      reply["decision"] = "block";
      reply["reason"] = cap(answer.block);
    }
  }
  if (
    answer.block === null &&
    answer.updatedInput !== undefined &&
    event === "PreToolUse"
  ) {
    // The hook already ran the command outside the agent's shell: what runs now only shows its result, so there is
    // nothing left to ask the user about.
    specific["permissionDecision"] = "allow";
    specific["permissionDecisionReason"] =
      "playbook runs this command itself, outside the agent's shell, and shows its output.";
    specific["updatedInput"] = answer.updatedInput;
  }
  if (answer.context.length > 0 && CONTEXT_EVENTS.has(event))
    specific["additionalContext"] = cap(answer.context.join("\n"));
  if (answer.notice !== null && NOTICE_EVENTS.has(event))
    reply["systemMessage"] = cap(answer.notice);
  if (Object.keys(specific).length > 0)
    reply["hookSpecificOutput"] = { hookEventName: event, ...specific };
  return {
    stdout: Object.keys(reply).length > 0 ? `${JSON.stringify(reply)}\n` : "",
    exitCode: 0,
  };
}

const MAX_CHARS = 9_500;
/** What a cut keeps of a text's end: every refusal ends with its next step and the kill switch. */
const TAIL_CHARS = 1_500;

/** Cuts a text over the cap in its middle, where a long refusal quotes the command, so its end still reads. */
function cap(text: string): string {
  if (text.length <= MAX_CHARS) return text;
  // 60 characters hold the note that says what was left out.
  const head = MAX_CHARS - TAIL_CHARS - 60;
  const left = text.length - head - TAIL_CHARS;
  return `${text.slice(0, head)}\n… (${left} characters left out) …\n${text.slice(-TAIL_CHARS)}`;
}
