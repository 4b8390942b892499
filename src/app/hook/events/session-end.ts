import {
  readSessionState,
  writeSessionState,
} from "../../../adapters/session-store.ts";
import type { StateSummary } from "../../../core/model/summary.ts";
import { emptySessionState } from "../../../core/session/session-state.ts";
import { toIsoTime } from "../../../core/time/iso-time.ts";
import type { HookAnswer } from "../../../hooks/reply.ts";
import {
  writeSessionStamp,
  type SetStateField,
} from "../../workspace/write-state-field.ts";

/**
 * SessionEnd (docs/sessions.md), inside Claude Code's 1.5 s budget: marks the session ended (its locks can then be cleared
 * by the next session) and writes `session.last_end`. SessionEnd output reaches nobody, so nothing is said.
 */
export function runSessionEnd(
  projectDir: string,
  sessionId: string | null,
  state: StateSummary | null,
  reason: string | null,
  deps: { now: () => Date; setStateField: () => SetStateField },
): HookAnswer {
  const at = toIsoTime(deps.now());
  if (sessionId) {
    const session =
      readSessionState(projectDir, sessionId) ?? emptySessionState();
    try {
      writeSessionState(projectDir, sessionId, {
        ...session,
        lastSeen: at,
        ended: at,
        endReason: reason,
      });
    } catch {
      // Without the mark the session counts as gone once it has been silent long enough.
    }
  }
  if (state)
    writeSessionStamp(projectDir, state, "last_end", at, deps.setStateField);
  return { block: null, context: [], notice: null };
}
