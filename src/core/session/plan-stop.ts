import type { PlaybookConfig } from "../config/config.ts";
import { hasPromise, type LoopState } from "./loop-state.ts";
import type { NextStep } from "./next-step.ts";
import { repeatedFailures, type SessionState } from "./session-state.ts";
import type { PlaybookProgress } from "./session-summary.ts";
import type { TranscriptSignals } from "./transcript-signals.ts";

export interface StopInput {
  sessionId: string | null;
  /** Claude Code is already continuing because a Stop hook blocked. */
  stopHookActive: boolean;
  lastMessage: string;
  session: SessionState;
  progress: PlaybookProgress | null;
  /** `**max_iterations**` of the phase the next step is in, when it sets one. */
  phaseMaxIterations: number | null;
  lockSet: boolean;
  /** The archive the last tick started still runs as a job; `waiter` follows it to its end. */
  archiveJob: { waiter: string } | null;
  loopConfig: PlaybookConfig["loop"];
  /** The plain loop, if one runs and was not cancelled. */
  loop: LoopState | null;
  /** The newest `playbook loop cancel`, if any. */
  cancelledAt: string | null;
  signals: TranscriptSignals;
  now: string;
}

export type LoopChange =
  | { kind: "keep" }
  | { kind: "save"; loop: LoopState }
  | { kind: "end"; why: string };

export interface StopPlan {
  /** The next instruction for the model (the turn continues), or null to let it stop. */
  block: string | null;
  /** What the user is told (e.g. why the loop ended). */
  notice: string | null;
  session: SessionState;
  loop: LoopChange;
}

/** The promise that ends the playbook continuation: the agent says it is done or needs the user. */
const DONE_PROMISE = "DONE";

/** Steps the agent can take without anyone else: only these keep a turn going. */
const AGENT_STEPS: ReadonlySet<NextStep["kind"]> = new Set([
  "implement",
  "fix",
  "tick",
  "delegate",
  "critic",
  "close-phase",
  "start-phase",
  "final-task",
]);

/**
 * Decides one Stop (docs/sessions.md). A plain loop bound to this session re-feeds its prompt until the promise or its
 * maximum; otherwise, while a reviewed playbook has work the agent can do, the stop is refused with the next
 * concrete step, up to the phase's max_iterations. Never refused: after an interrupt or an API error, near the
 * context limit, after `maxConsecutiveBlocks` continuations in a row, when the same tool error repeated
 * `sameErrorLimit` times, while the post-loop lock is set, after `<promise>DONE</promise>`, after a cancel, or when
 * the user's last prompt only asked a question. All counters are this session's own.
 */
export function planStop(input: StopInput): StopPlan {
  const allow = (
    notice: string | null = null,
    loop: LoopChange = { kind: "keep" },
  ): StopPlan => ({
    block: null,
    notice,
    session: {
      ...input.session,
      lastSeen: input.now,
      continuation: { ...input.session.continuation, consecutive: 0 },
    },
    loop,
  });
  const config = input.loopConfig;
  const { signals } = input;
  if (signals.interrupted) return allow();
  if (signals.apiError)
    return allow(
      `playbook: not continuing after an API error (${signals.apiError}).`,
    );
  if (
    signals.contextPercent !== null &&
    signals.contextPercent >= config.contextLimitPercent
  )
    return allow(
      `playbook: not continuing, the context window is ${signals.contextPercent}% full. Compact (/compact) or start a new session; the playbook says where to pick up.`,
    );
  const repeated = repeatedFailures(input.session);
  const structural =
    repeated >= config.sameErrorLimit
      ? `the same error happened ${repeated} times in a row (${input.session.failures.at(-1)?.summary ?? ""}); that looks structural, not something another attempt fixes`
      : null;
  const consecutive = input.session.continuation.consecutive;
  // The hand-over is still running: the turn ends with its outcome, not before it. Bounded like every continuation.
  if (
    input.archiveJob !== null &&
    !(input.stopHookActive && consecutive >= config.maxConsecutiveBlocks)
  )
    return {
      block: `playbook: the archive of the finished playbook still runs as a job. Next: run \`${input.archiveJob.waiter}\` in Bash; it prints each step and exits with the archive's exit code. Then tell the user how the hand-over ended.`,
      notice: null,
      session: {
        ...input.session,
        lastSeen: input.now,
        continuation: {
          ...input.session.continuation,
          consecutive: input.stopHookActive ? consecutive + 1 : 1,
        },
      },
      loop: { kind: "keep" },
    };
  const loop = input.loop;
  if (loop && (loop.session === null || loop.session === input.sessionId))
    return planLoop(input, loop, structural, allow);
  if (!config.continuation || input.lockSet) return allow();
  if (
    input.cancelledAt !== null &&
    (input.session.lastPromptAt ?? "") < input.cancelledAt
  )
    return allow();
  if (hasPromise(input.lastMessage, DONE_PROMISE)) return allow();
  // A question is answered and left; a short go-ahead ("yes", "keep going") means carry on.
  if (input.session.lastPrompt === "question") return allow();
  const progress = input.progress;
  if (!progress?.reviewed || !AGENT_STEPS.has(progress.next.kind))
    return allow();
  if (input.stopHookActive && consecutive >= config.maxConsecutiveBlocks)
    return allow(
      `playbook: let the agent stop after ${consecutive} continuations in a row; the playbook still has open work (${progress.next.text})`,
    );
  if (structural)
    return allow(
      `playbook: not continuing: ${structural}. Look at it together with the agent.`,
    );
  const phase = "phase" in progress.next ? progress.next.phase : "final";
  const done = input.session.continuation.byPhase[phase] ?? 0;
  const max = input.phaseMaxIterations ?? config.maxIterations;
  if (done >= max)
    return allow(
      `playbook: ${phase} reached its ${max} continuations (max_iterations) in this session; the agent stopped with work open (${progress.next.text})`,
    );
  return {
    block: `playbook: the reviewed playbook ${progress.path} still has work you can do (${progress.checked}/${progress.total} subtasks checked). Next: ${progress.next.text} (continuation ${done + 1}/${max} for ${phase}. If you cannot go on without the user, say why and end with <promise>${DONE_PROMISE}</promise>.)`,
    notice: null,
    session: {
      ...input.session,
      lastSeen: input.now,
      continuation: {
        consecutive: input.stopHookActive ? consecutive + 1 : 1,
        byPhase: { ...input.session.continuation.byPhase, [phase]: done + 1 },
      },
    },
    loop: { kind: "keep" },
  };
}

function planLoop(
  input: StopInput,
  loop: LoopState,
  structural: string | null,
  allow: (notice: string | null, loop: LoopChange) => StopPlan,
): StopPlan {
  if (hasPromise(input.lastMessage, loop.promise))
    return allow(
      `playbook loop: finished after ${loop.iteration} iterations (the promise was kept).`,
      {
        kind: "end",
        why: "promise kept",
      },
    );
  if (loop.iteration >= loop.max)
    return allow(
      `playbook loop: stopped at its maximum of ${loop.max} iterations without the promise.`,
      {
        kind: "end",
        why: "maximum reached",
      },
    );
  if (structural)
    return allow(`playbook loop: stopped: ${structural}.`, {
      kind: "end",
      why: "same error repeated",
    });
  const iteration = loop.iteration + 1;
  return {
    block: `${loop.prompt}\n\n(playbook loop, iteration ${iteration}/${loop.max}. When the task is complete and verified, end your message with <promise>${loop.promise}</promise>.)`,
    notice: null,
    session: { ...input.session, lastSeen: input.now },
    loop: {
      kind: "save",
      loop: { ...loop, iteration, session: input.sessionId ?? loop.session },
    },
  };
}
