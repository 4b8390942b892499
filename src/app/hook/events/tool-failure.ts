import {
  readSessionState,
  writeSessionState,
} from "../../../adapters/session-store.ts";
import type { PlaybookConfig } from "../../../core/config/config.ts";
import {
  emptySessionState,
  failureSignature,
  MAX_FAILURES,
  repeatedFailures,
} from "../../../core/session/session-state.ts";
import {
  isSandboxStartRace,
  SANDBOX_START_RACE_NOTE,
} from "../../../core/session/sandbox-start-race.ts";
import { planReadOnlyNote } from "../../../core/session/plan-read-only-note.ts";
import type { HookPayload } from "../../../hooks/payload.ts";
import type { HookAnswer } from "../../../hooks/reply.ts";

/**
 * PostToolUseFailure: the failure remembered for the session, so the continuation loop can tell a structural problem
 * (the same error again and again) from progress. Claude Code sends it for a tool that ran and failed (a command that
 * exits non-zero); an Edit that fails Claude Code's own checks (`old_string` missing or not unique, no such file)
 * runs no hook at all, and the model reads Claude Code's own message for it (docs/claude-code.md).
 */
export function runToolFailure(
  projectDir: string,
  payload: HookPayload,
  config: PlaybookConfig,
): HookAnswer {
  const answer: HookAnswer = { block: null, context: [], notice: null };
  if (payload["is_interrupt"] === true) return answer;
  const tool = payload.tool_name ?? "tool";
  const error =
    typeof payload["error"] === "string"
      ? payload["error"]
      : JSON.stringify(payload["error"] ?? "");
  // Not the command's failure (it never ran), so the same-error gate does not count it.
  if (isSandboxStartRace(error)) {
    answer.context.push(SANDBOX_START_RACE_NOTE);
    return answer;
  }
  const readOnly = planReadOnlyNote(error);
  if (readOnly !== null) answer.context.push(readOnly);
  const sessionId = payload.session_id;
  if (!sessionId) return answer;
  const state = readSessionState(projectDir, sessionId) ?? emptySessionState();
  const first = error.trim().split(/\r?\n/, 1)[0] ?? "";
  const next = {
    ...state,
    failures: [
      ...state.failures,
      {
        signature: failureSignature(tool, error),
        summary: `${tool}: ${first.slice(0, 160)}`,
      },
    ].slice(-MAX_FAILURES),
  };
  try {
    writeSessionState(projectDir, sessionId, next);
  } catch {
    // Only the loop's same-error gate uses this.
  }
  const repeated = repeatedFailures(next);
  if (repeated >= config.loop.sameErrorLimit)
    answer.context.push(
      `This is the same failure ${repeated} times in a row (${next.failures.at(-1)?.summary ?? ""}). Another attempt of the same kind will not fix it: find the cause (read the code or the full output), change the approach, or ask the user.`,
    );
  return answer;
}
