import { describe, expect, it } from "vitest";
import { analyzeBash } from "../../../src/core/bash/analyze-bash.ts";
import { evaluateGuards } from "../../../src/core/guards/evaluate.ts";
import type { GuardContext } from "../../../src/core/guards/types.ts";
import { isOutOfTime, OutOfTime } from "../../../src/core/time/deadline.ts";
import {
  CHECK_BUDGET_MS,
  checkBudget,
  startDeadline,
} from "../../../src/entries/deadline.ts";

const timeIsUp = () => {
  throw new OutOfTime(6000);
};

describe("the PreToolUse deadline", () => {
  it.each([
    [undefined, CHECK_BUDGET_MS],
    ["", CHECK_BUDGET_MS],
    ["abc", CHECK_BUDGET_MS],
    ["-5", CHECK_BUDGET_MS],
    ["0", 0],
    ["250", 250],
    // Never past Claude Code's 10 s, after which it runs the call unchecked.
    ["60000", 8000],
  ])("PLAYBOOK_CHECK_BUDGET_MS=%s gives %s ms", (raw, ms) => {
    expect(checkBudget(raw)).toBe(ms);
  });

  it("counts from the start of the process", () => {
    expect(() => startDeadline(0, () => 1e9)()).toThrow(OutOfTime);
    expect(() => startDeadline(60_000, () => 0)()).not.toThrow();
  });

  it("the shell analysis does not swallow the time running out as a parse failure", () => {
    const error = (() => {
      try {
        analyzeBash("rm -f a; rm -f b", timeIsUp);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(isOutOfTime(error)).toBe(true);
  });

  it("the guards do not skip a guard that ran out of time as a failing one: the whole call is out of time", () => {
    expect(() =>
      evaluateGuards(
        { event: "PreToolUse" } as GuardContext,
        undefined,
        () => 0,
        timeIsUp,
      ),
    ).toThrow(OutOfTime);
  });
});
