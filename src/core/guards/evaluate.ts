import { bashCheckGuard } from "./bash-check.ts";
import { coherenceGuard } from "./coherence.ts";
import { criticGuard } from "./critic.ts";
import { dependsGuard } from "./depends.ts";
import { executorGuard } from "./executor.ts";
import { KILL_SWITCH } from "./facts.ts";
import { initGuard } from "./init.ts";
import { mainBranchGuard } from "./main-branch.ts";
import { pendingGuard } from "./pending.ts";
import { playbookGuard } from "./playbook.ts";
import { protectedGuard } from "./protected.ts";
import { scopeGuard } from "./scope.ts";
import { subtaskGuard } from "./subtask.ts";
import type { Effect, Guard, GuardContext } from "./types.ts";
import { isOutOfTime, NO_DEADLINE, type CheckTime } from "../time/deadline.ts";

/** The twelve guards of docs/guards.md, in the order they run. */
export const GUARDS: readonly Guard[] = [
  pendingGuard,
  protectedGuard,
  mainBranchGuard,
  playbookGuard,
  dependsGuard,
  executorGuard,
  subtaskGuard,
  criticGuard,
  scopeGuard,
  bashCheckGuard,
  coherenceGuard,
  initGuard,
].sort((a, b) => a.number - b.number);

/** The combined answer of every guard for one event. */
export interface Verdict {
  /** The first block, in guard order; null when nothing blocks. */
  block: { guard: string; reason: string } | null;
  /** Context from guards that did not block, in guard order. */
  context: string[];
  effects: Effect[];
  /** Guards that threw and were skipped (fail-open) or turned into the block (fail-closed). */
  failures: { guard: string; error: string; failClosed: boolean }[];
  timings: { guard: string; ms: number }[];
}

/**
 * Runs each guard for `ctx.event` in order, stopping at the first block. A guard that throws while judging a tool
 * call (PreToolUse) blocks that call, naming the kill switch: a call a guard could not check is a call an agent
 * could get through by making it fail. At other events a throwing guard is reported and skipped (a Stop or a
 * SessionStart must never deadlock on a bug), unless it is fail-closed there too. `clock` is injected so timings
 * stay out of the pure core; `checkTime` is asked before each guard, and its `OutOfTime` is never swallowed.
 */
export function evaluateGuards(
  ctx: GuardContext,
  guards: readonly Guard[] = GUARDS,
  clock: () => number = () => 0,
  checkTime: CheckTime = NO_DEADLINE,
): Verdict {
  const verdict: Verdict = {
    block: null,
    context: [],
    effects: [],
    failures: [],
    timings: [],
  };
  for (const guard of guards) {
    if (!guard.events.includes(ctx.event)) continue;
    checkTime();
    const started = clock();
    try {
      const result = guard.check(ctx);
      verdict.timings.push({ guard: guard.id, ms: clock() - started });
      const decision = result.decision;
      if (decision.kind === "block") {
        verdict.block = { guard: guard.id, reason: decision.reason };
        // A blocked call must not leave a grant or record behind.
        verdict.effects = [];
        return verdict;
      }
      if (decision.kind === "context") verdict.context.push(decision.text);
      verdict.effects.push(...(result.effects ?? []));
    } catch (error) {
      if (isOutOfTime(error)) throw error;
      verdict.timings.push({ guard: guard.id, ms: clock() - started });
      const message = error instanceof Error ? error.message : String(error);
      const failClosed =
        ctx.event === "PreToolUse" || guard.failClosed === true;
      verdict.failures.push({ guard: guard.id, error: message, failClosed });
      if (failClosed) {
        verdict.effects = [];
        verdict.block = {
          guard: guard.id,
          reason: `Blocked: the ${guard.id} guard failed (${message}) and it does not let calls through unchecked. Next: report this as a playbook bug with the call that triggered it. ${KILL_SWITCH}`,
        };
        return verdict;
      }
      verdict.context.push(
        `playbook: the ${guard.id} guard failed (${message}) and was skipped; this call was not checked by it.`,
      );
    }
  }
  return verdict;
}
