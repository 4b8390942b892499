import { describe, expect, it } from "vitest";
import { PROGRESS } from "../../../helpers/session-progress.ts";
import { defaultConfig } from "../../../../src/core/config/config.ts";
import type { LoopState } from "../../../../src/core/session/loop-state.ts";
import {
  planStop,
  type StopInput,
} from "../../../../src/core/session/plan-stop.ts";
import {
  emptySessionState,
  type SessionState,
} from "../../../../src/core/session/session-state.ts";

function input(
  overrides: Partial<StopInput> = {},
  session: Partial<SessionState> = {},
): StopInput {
  return {
    sessionId: "s1",
    stopHookActive: false,
    lastMessage: "I updated the form.",
    session: {
      ...emptySessionState(),
      lastPrompt: "work",
      lastPromptAt: "2026-11-23T10:00:00.000Z",
      ...session,
    },
    progress: PROGRESS,
    phaseMaxIterations: null,
    lockSet: false,
    archiveJob: null,
    loopConfig: defaultConfig().loop,
    loop: null,
    cancelledAt: null,
    signals: { contextPercent: 40, interrupted: false, apiError: null },
    now: "2026-11-23T10:05:00.000Z",
    ...overrides,
  };
}

const failures = (n: number, signature = "Bash: Exit code 1") =>
  Array.from({ length: n }, () => ({ signature, summary: signature }));

describe("planStop: the archive running as a job", () => {
  const archiveJob = { waiter: "'node' '/x/dist/job.cjs' 'wait' '/p/job'" };

  it.each([
    ["the post-loop lock already set", { lockSet: true }],
    ["no playbook left", { progress: null }],
    [
      "continuation turned off",
      { loopConfig: { ...defaultConfig().loop, continuation: false } },
    ],
  ] as const)(
    "refuses the stop with the command that follows it, even with %s",
    (_, overrides) => {
      const plan = planStop(input({ archiveJob, ...overrides }));
      expect(plan.block).toContain(
        "the archive of the finished playbook still runs as a job",
      );
      expect(plan.block).toContain(archiveJob.waiter);
      expect(plan.session.continuation.consecutive).toBe(1);
    },
  );

  it("lets the agent stop after an interrupt, and after the continuations in a row run out", () => {
    expect(
      planStop(
        input({
          archiveJob,
          signals: { contextPercent: 40, interrupted: true, apiError: null },
        }),
      ).block,
    ).toBeNull();
    const max = defaultConfig().loop.maxConsecutiveBlocks;
    expect(
      planStop(
        input(
          { archiveJob, stopHookActive: true, progress: null },
          { continuation: { consecutive: max, byPhase: {} } },
        ),
      ).block,
    ).toBeNull();
  });
});

describe("planStop: the playbook continuation", () => {
  it("refuses the stop with the next concrete step while the reviewed playbook has work the agent can do", () => {
    const plan = planStop(input());
    expect(plan.block).toContain("Next: p1.1");
    expect(plan.block).toContain("playbook verify p1.1");
    expect(plan.block).toContain("continuation 1/10 for p1");
    expect(plan.block).toContain("<promise>DONE</promise>");
    expect(plan.session.continuation).toEqual({
      consecutive: 1,
      byPhase: { p1: 1 },
    });
    expect(plan.session.lastSeen).toBe("2026-11-23T10:05:00.000Z");
  });

  it("counts continuations in a row while stop_hook_active, per phase across the session", () => {
    const plan = planStop(
      input(
        { stopHookActive: true },
        { continuation: { consecutive: 2, byPhase: { p1: 4 } } },
      ),
    );
    expect(plan.block).toContain("continuation 5/10");
    expect(plan.session.continuation).toEqual({
      consecutive: 3,
      byPhase: { p1: 5 },
    });
  });

  it.each<[string, Partial<StopInput>, Partial<SessionState>, RegExp | null]>([
    [
      "the user interrupted",
      { signals: { contextPercent: 40, interrupted: true, apiError: null } },
      {},
      null,
    ],
    [
      "an API error ended the turn",
      {
        signals: {
          contextPercent: 40,
          interrupted: false,
          apiError: "API Error: 529 overloaded",
        },
      },
      {},
      /API error/,
    ],
    [
      "the context window is nearly full",
      { signals: { contextPercent: 91, interrupted: false, apiError: null } },
      {},
      /91% full/,
    ],
    [
      "N continuations in a row",
      { stopHookActive: true },
      { continuation: { consecutive: 5, byPhase: { p1: 5 } } },
      /5 continuations in a row/,
    ],
    [
      "the same error three times",
      {},
      { failures: failures(3) },
      /same error happened 3 times/,
    ],
    [
      "the phase's max_iterations",
      { phaseMaxIterations: 3 },
      { continuation: { consecutive: 0, byPhase: { p1: 3 } } },
      /p1 reached its 3 continuations/,
    ],
    [
      "the default max_iterations",
      {},
      { continuation: { consecutive: 0, byPhase: { p1: 10 } } },
      /10 continuations/,
    ],
    ["the post-loop lock", { lockSet: true }, {}, null],
    [
      "<promise>DONE</promise>",
      { lastMessage: "I need the API key from you.\n<promise>DONE</promise>" },
      {},
      null,
    ],
    ["the user asked a question", {}, { lastPrompt: "question" }, null],
    [
      "a cancel after the user's last prompt",
      { cancelledAt: "2026-11-23T10:01:00.000Z" },
      {},
      null,
    ],
    [
      "continuation turned off",
      { loopConfig: { ...defaultConfig().loop, continuation: false } },
      {},
      null,
    ],
    ["no active playbook", { progress: null }, {}, null],
    [
      "an unreviewed playbook",
      { progress: { ...PROGRESS, reviewed: false } },
      {},
      null,
    ],
    [
      "the next step is the user's",
      {
        progress: {
          ...PROGRESS,
          next: {
            kind: "user",
            phase: "p1",
            subtask: "p1.1",
            text: "ask the user",
          },
        },
      },
      {},
      null,
    ],
    [
      "everything is done",
      { progress: { ...PROGRESS, next: { kind: "complete", text: "done" } } },
      {},
      null,
    ],
  ])("lets the agent stop when %s", (_name, overrides, session, notice) => {
    const plan = planStop(input(overrides, session));
    expect(plan.block).toBeNull();
    if (notice) expect(plan.notice).toMatch(notice);
    else expect(plan.notice).toBeNull();
    expect(plan.session.continuation.consecutive).toBe(0);
  });

  /** The stop refused with the playbook's next step, as the first continuation for p1. */
  const expectContinued = (plan: ReturnType<typeof planStop>) => {
    expect(plan.block).toContain("Next: p1.1");
    expect(plan.block).toContain("continuation 1/10 for p1");
    expect(plan.session.continuation).toEqual({
      consecutive: 1,
      byPhase: { p1: 1 },
    });
  };

  it('carries on after a short go-ahead that is neither work nor a question ("yes", "keep going")', () => {
    expectContinued(planStop(input({}, { lastPrompt: "other" })));
  });

  it("continues again after a cancel once the user has spoken", () => {
    expectContinued(
      planStop(
        input(
          { cancelledAt: "2026-11-23T09:00:00.000Z" },
          { lastPromptAt: "2026-11-23T10:00:00.000Z" },
        ),
      ),
    );
  });

  it("does not count a different error as the same one", () => {
    const plan = planStop(
      input(
        {},
        { failures: [...failures(2), { signature: "Edit: x", summary: "x" }] },
      ),
    );
    expectContinued(plan);
    expect(plan.block).not.toContain("same error");
  });
});

describe("planStop: the plain loop", () => {
  const loop: LoopState = {
    id: "l1",
    prompt: "Make every test in test/ pass.",
    max: 3,
    promise: "ALL GREEN",
    iteration: 0,
    session: "s1",
    startedAt: "2026-11-23T09:59:00.000Z",
  };

  it("feeds the prompt again and counts the iteration", () => {
    const plan = planStop(input({ loop, progress: null }));
    expect(plan.block).toContain("Make every test in test/ pass.");
    expect(plan.block).toContain("iteration 1/3");
    expect(plan.block).toContain("<promise>ALL GREEN</promise>");
    expect(plan.loop).toEqual({
      kind: "save",
      loop: { ...loop, iteration: 1 },
    });
  });

  it("claims an unbound loop for the session that stops first", () => {
    const plan = planStop(input({ loop: { ...loop, session: null } }));
    expect(plan.loop).toMatchObject({ kind: "save", loop: { session: "s1" } });
  });

  it("never steers another session", () => {
    const plan = planStop(
      input({ loop: { ...loop, session: "s2" }, progress: null }),
    );
    expect(plan.block).toBeNull();
    expect(plan.loop).toEqual({ kind: "keep" });
  });

  it.each<[string, Partial<StopInput>, Partial<SessionState>, string | null]>([
    [
      "the promise is kept",
      { lastMessage: "All 42 tests pass. <promise> all green </promise>" },
      {},
      "promise kept",
    ],
    [
      "the maximum is reached",
      { loop: { ...loop, iteration: 3 } },
      {},
      "maximum reached",
    ],
    [
      "the same error repeats",
      {},
      { failures: failures(3) },
      "same error repeated",
    ],
    [
      "the user interrupted",
      { signals: { contextPercent: 10, interrupted: true, apiError: null } },
      {},
      null,
    ],
    [
      "the context is nearly full",
      { signals: { contextPercent: 95, interrupted: false, apiError: null } },
      {},
      null,
    ],
  ])("ends or pauses when %s", (_name, overrides, session, ended) => {
    const plan = planStop(input({ loop, ...overrides }, session));
    expect(plan.block).toBeNull();
    expect(plan.loop).toEqual(
      ended ? { kind: "end", why: ended } : { kind: "keep" },
    );
  });
});
