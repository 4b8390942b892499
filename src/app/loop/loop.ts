import { cancelLoop, readLoop, startLoop } from "../../adapters/loop-store.ts";
import { listSessionStates } from "../../adapters/session-store.ts";
import { PlaybookError } from "../../core/errors.ts";
import type { LoopCancel, LoopState } from "../../core/session/loop-state.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";

export interface LoopDeps {
  now: () => Date;
  newId: () => string;
  /** `CLAUDE_CODE_SESSION_ID` when the command runs inside Claude Code. */
  sessionId: string | null;
}

/**
 * `playbook loop start "<prompt>" --max N --promise TEXT` (docs/sessions.md): the Stop hook then feeds the prompt again
 * until a message ends with `<promise>TEXT</promise>` or N iterations have run. The loop belongs to the session that
 * started it (`--session`, else `CLAUDE_CODE_SESSION_ID`); started from a terminal, the first session that stops
 * claims it.
 */
export function runLoopStart(
  root: string,
  options: {
    prompt: string;
    max: number;
    promise: string;
    session: string | null;
  },
  deps: LoopDeps,
): LoopState {
  const prompt = options.prompt.trim();
  if (prompt === "")
    throw new PlaybookError(
      "E_USAGE",
      'The loop needs a prompt, expected `playbook loop start "<prompt>"`.',
      {
        hint: 'Quote the prompt: playbook loop start "make every test in test/ pass" --max 10.',
      },
    );
  if (!Number.isInteger(options.max) || options.max < 1 || options.max > 1000)
    throw new PlaybookError(
      "E_USAGE",
      `Unexpected --max ${options.max}, expected a whole number from 1 to 1000.`,
      {
        hint: "Give the most iterations the loop may run, e.g. --max 10.",
      },
    );
  const promise = options.promise.trim();
  if (promise === "" || /[<>]/.test(promise))
    throw new PlaybookError(
      "E_USAGE",
      `Unexpected --promise ${JSON.stringify(options.promise)}, expected words without < or >.`,
      {
        hint: "Pass a word such as --promise DONE; the agent ends the loop by writing <promise>DONE</promise>.",
      },
    );
  const running = readLoop(root).loop;
  if (running)
    throw new PlaybookError(
      "E_CONFIG",
      `A loop is already running (iteration ${running.iteration}/${running.max}: ${JSON.stringify(running.prompt.slice(0, 60))}).`,
      { hint: "Cancel it first with `playbook loop cancel`." },
    );
  const loop: LoopState = {
    id: deps.newId(),
    prompt,
    max: options.max,
    promise,
    iteration: 0,
    session: options.session ?? deps.sessionId,
    startedAt: toIsoTime(deps.now()),
  };
  startLoop(root, loop);
  return loop;
}

export interface LoopStatus {
  loop: LoopState | null;
  cancel: LoopCancel | null;
  /** The playbook continuation's counters of sessions seen in the last day, newest first. */
  sessions: {
    id: string;
    lastSeen: string | null;
    consecutive: number;
    byPhase: Record<string, number>;
  }[];
}

export function runLoopStatus(
  root: string,
  deps: Pick<LoopDeps, "now">,
): LoopStatus {
  const { loop, cancel } = readLoop(root);
  const since = deps.now().getTime() - 86_400_000;
  const sessions = listSessionStates(root)
    .filter(
      ({ state }) =>
        state.ended === null && Date.parse(state.lastSeen ?? "") > since,
    )
    .map(({ id, state }) => ({
      id,
      lastSeen: state.lastSeen,
      consecutive: state.continuation.consecutive,
      byPhase: state.continuation.byPhase,
    }))
    .sort((a, b) => (b.lastSeen ?? "").localeCompare(a.lastSeen ?? ""));
  return { loop, cancel, sessions };
}

/**
 * `playbook loop cancel`: ends the plain loop and pauses the playbook continuation until the user's next prompt.
 * It always wins: the Stop hook never revives a loop its cancel marker names.
 */
export function runLoopCancel(
  root: string,
  deps: Pick<LoopDeps, "now">,
): LoopState | null {
  try {
    return cancelLoop(root, toIsoTime(deps.now()));
  } catch (cause) {
    throw new PlaybookError(
      "E_WRITE",
      `The loop could not be cancelled: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        hint: "Check that .claude/playbook/ is writable; PLAYBOOK_DISABLE=1 turns every hook off meanwhile.",
        cause,
      },
    );
  }
}
