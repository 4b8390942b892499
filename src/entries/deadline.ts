import { OutOfTime, type CheckTime } from "../core/time/deadline.ts";

/**
 * How long a PreToolUse call may take, counted from the start of the process. Claude Code waits 10 s and then runs
 * the call unchecked, so the hook refuses it well before: what is left covers one uninterrupted step (the shell
 * parser reads 1 MB in about a second) and the reply.
 */
export const CHECK_BUDGET_MS = 6000;
const MAX_BUDGET_MS = 8000;

/** `PLAYBOOK_CHECK_BUDGET_MS` (for tests: a small budget forces the out-of-time path), capped below Claude Code's 10 s. */
export function checkBudget(raw: string | undefined): number {
  const ms = Number(raw);
  return raw !== undefined && raw !== "" && Number.isFinite(ms) && ms >= 0
    ? Math.min(ms, MAX_BUDGET_MS)
    : CHECK_BUDGET_MS;
}

/** A check that throws `OutOfTime` once `budgetMs` have passed since the process started. */
export function startDeadline(
  budgetMs: number,
  clock: () => number,
): CheckTime {
  const end = deadlineOf(budgetMs, clock);
  return () => {
    if (clock() > end) throw new OutOfTime(budgetMs);
  };
}

/** Milliseconds left of `budgetMs` counted from the start of the process. */
export function timeLeftOf(
  budgetMs: number,
  clock: () => number,
): () => number {
  const end = deadlineOf(budgetMs, clock);
  return () => end - clock();
}

function deadlineOf(budgetMs: number, clock: () => number): number {
  return clock() - process.uptime() * 1000 + budgetMs;
}
