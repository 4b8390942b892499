import {
  endLoop,
  readLoop,
  readTranscriptTail,
  saveLoop,
} from "../../../adapters/loop-store.ts";
import {
  readSessionState,
  writeSessionState,
} from "../../../adapters/session-store.ts";
import { runningJobs, waiterCommand } from "../../../adapters/trusted-job.ts";
import type { PlaybookConfig } from "../../../core/config/config.ts";
import type { GuardContext } from "../../../core/guards/types.ts";
import { planStop } from "../../../core/session/plan-stop.ts";
import { playbookProgress } from "../../../core/session/playbook-progress.ts";
import { emptySessionState } from "../../../core/session/session-state.ts";
import { readTranscriptSignals } from "../../../core/session/transcript-signals.ts";
import { toIsoTime } from "../../../core/time/iso-time.ts";
import type { HookPayload } from "../../../hooks/payload.ts";
import type { HookAnswer } from "../../../hooks/reply.ts";

/**
 * Stop (docs/sessions.md): reads this session's counters, the plain loop, the transcript's end, the playbook's next
 * step and whether the archive runs as a job, lets `planStop` decide, and saves what changed. A write that fails never turns into a block.
 */
export function runStop(
  ctx: GuardContext,
  payload: HookPayload,
  deps: { now: () => Date; config: PlaybookConfig; distDir: string },
): HookAnswer {
  const now = toIsoTime(deps.now());
  const archive = runningJobs(ctx.projectDir, "archive", deps.now().getTime());
  const sessionId = ctx.sessionId;
  const session =
    (sessionId ? readSessionState(ctx.projectDir, sessionId) : null) ??
    emptySessionState();
  const { loop, cancel } = readLoop(ctx.projectDir);
  const progress = playbookProgress(ctx);
  const phaseId =
    progress && "phase" in progress.next ? progress.next.phase : null;
  const lastMessage = payload.last_assistant_message ?? "";
  const plan = planStop({
    sessionId,
    stopHookActive: payload.stop_hook_active === true,
    lastMessage,
    session,
    progress,
    phaseMaxIterations:
      ctx.active?.summary.phases.find((p) => p.id === phaseId)?.maxIterations ??
      null,
    lockSet: ctx.lock !== null,
    archiveJob:
      archive[0] === undefined
        ? null
        : { waiter: waiterCommand(deps.distDir, archive[0].jobDir) },
    loopConfig: deps.config.loop,
    loop,
    cancelledAt: cancel?.at ?? null,
    signals: readTranscriptSignals(
      readTranscriptTail(
        typeof payload["transcript_path"] === "string"
          ? payload["transcript_path"]
          : undefined,
      ),
      lastMessage,
    ),
    now,
  });
  try {
    if (sessionId) writeSessionState(ctx.projectDir, sessionId, plan.session);
    if (plan.loop.kind === "save") saveLoop(ctx.projectDir, plan.loop.loop);
    if (plan.loop.kind === "end" && loop)
      endLoop(ctx.projectDir, loop, plan.loop.why, now);
  } catch (error) {
    // Without its counters the loop could not be bounded: let the agent stop rather than risk running on.
    return {
      block: null,
      context: [],
      notice: `playbook: could not save the loop state (${error instanceof Error ? error.message : String(error)}); not continuing.`,
    };
  }
  return { block: plan.block, context: [], notice: plan.notice };
}
