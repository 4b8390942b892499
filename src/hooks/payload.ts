import * as v from "valibot";
import type { HookEvent } from "../core/guards/events.ts";

const base = {
  session_id: v.optional(v.string()),
  transcript_path: v.optional(v.string()),
  cwd: v.optional(v.string()),
  hook_event_name: v.optional(v.string()),
  permission_mode: v.optional(v.string()),
  agent_id: v.optional(v.string()),
  agent_type: v.optional(v.nullable(v.string())),
};

const toolEvent = v.looseObject({
  ...base,
  tool_name: v.string(),
  tool_input: v.record(v.string(), v.unknown()),
  tool_use_id: v.optional(v.string()),
});

const stopEvent = v.looseObject({
  ...base,
  stop_hook_active: v.optional(v.boolean()),
  last_assistant_message: v.optional(v.nullable(v.string())),
});

/** Fields each event must carry; unknown fields are kept and ignored, so newer Claude Code versions still work. */
const SCHEMAS: Record<HookEvent, v.GenericSchema> = {
  SessionStart: v.looseObject({ ...base, source: v.optional(v.string()) }),
  UserPromptSubmit: v.looseObject({ ...base, prompt: v.string() }),
  PreToolUse: toolEvent,
  PostToolUse: toolEvent,
  PostToolUseFailure: v.looseObject({
    ...base,
    tool_name: v.string(),
    tool_input: v.record(v.string(), v.unknown()),
    error: v.optional(v.unknown()),
  }),
  Stop: stopEvent,
  SubagentStop: stopEvent,
  PreCompact: v.looseObject({ ...base, trigger: v.optional(v.string()) }),
  SessionEnd: v.looseObject({ ...base, reason: v.optional(v.string()) }),
};

/** The fields the runtime reads, after validation. */
export interface HookPayload {
  session_id?: string;
  cwd?: string;
  hook_event_name?: string;
  agent_type?: string | null;
  agent_id?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  last_assistant_message?: string | null;
  stop_hook_active?: boolean;
  prompt?: string;
  source?: string;
  [key: string]: unknown;
}

/**
 * Validates the event JSON against what `event` must carry. The problem names the field and what was expected, so
 * a Claude Code protocol change is reported, not misread.
 */
export function parseHookPayload(
  event: HookEvent,
  json: unknown,
): { ok: true; payload: HookPayload } | { ok: false; problem: string } {
  const result = v.safeParse(SCHEMAS[event], json);
  if (result.success) {
    const payload = result.output as HookPayload;
    // Claude Code renamed Task to Agent in 2.1.63; older versions still send Task.
    if (payload.tool_name === "Task") payload.tool_name = "Agent";
    return { ok: true, payload };
  }
  const issue = result.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join(".") ?? "(root)";
  return {
    ok: false,
    problem: `the ${event} event has an unexpected \`${path}\`: ${issue.message}`,
  };
}
