/**
 * The hook's time for one PreToolUse call is limited: Claude Code runs a call whose hook does not answer in time as
 * if there were no hook. The analysis checks the time at its loop points through a `CheckTime` the runtime passes
 * in (the core reads no clock); once the time is up it throws `OutOfTime`, and the call is refused.
 */
export type CheckTime = () => void;

export const NO_DEADLINE: CheckTime = () => undefined;

export class OutOfTime extends Error {
  readonly budgetMs: number;
  constructor(budgetMs: number) {
    super(`no answer within ${budgetMs / 1000} s`);
    this.name = "OutOfTime";
    this.budgetMs = budgetMs;
  }
}

/** By name, not class: the shell analysis runs from its own bundle, with its own copy of the class. */
export function isOutOfTime(error: unknown): error is OutOfTime {
  return error instanceof Error && error.name === "OutOfTime";
}
