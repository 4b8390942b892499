import { describe, expect, it } from "vitest";
import { createRecordSet } from "../../../../src/core/records/record-set.ts";
import type { PlaybookRecord } from "../../../../src/core/records/record.ts";
import {
  nextStep,
  type NextStep,
} from "../../../../src/core/session/next-step.ts";
import {
  BOOK,
  playbookOf,
  recordFor,
  REVIEWED,
} from "../../../helpers/guard-context.ts";

function stepOf(
  text: string,
  records: (book: ReturnType<typeof playbookOf>) => PlaybookRecord[] = () => [],
  statePhase: string | null = "p1",
  roles: Record<string, string> = {},
  approved = true,
): NextStep {
  const playbook = playbookOf(text);
  // The reviewer's approval of the plan as it is: without it, the next step is the review.
  const approval = approved
    ? [
        recordFor(playbook, {
          kind: "review",
          target: "playbook",
          verdict: "approve",
        }),
      ]
    : [];
  return nextStep({
    path: BOOK,
    playbook,
    records: createRecordSet([...approval, ...records(playbook)]),
    statePhase,
    resolveExecutor: (name) =>
      roles[name] ?? (name === "worker" ? "claudecode" : name),
  });
}

const evidence = (
  book: ReturnType<typeof playbookOf>,
  target: string,
  verdict: "PASS" | "FAIL" = "PASS",
): PlaybookRecord[] =>
  (["technical", "consistency", "completeness"] as const).map((validation) =>
    recordFor(book, { kind: "evidence", target, validation, verdict }),
  );

const P1_DONE = REVIEWED.replace("- [ ] **p1.1**", "- [x] **p1.1**");

describe("nextStep", () => {
  it.each<[string, () => NextStep, Partial<NextStep>]>([
    [
      "a plan not reviewed yet: the review, before any subtask",
      () => stepOf(REVIEWED.replace("reviewed: true", "reviewed: false")),
      { kind: "plan", missing: "review" },
    ],
    [
      "a plan not written yet (lint errors, not reviewed): writing it, before the review",
      () =>
        stepOf(
          REVIEWED.replace("reviewed: true", "reviewed: false").replace(
            /summary: .*\n/,
            "",
          ),
        ),
      { kind: "plan", missing: "write" },
    ],
    [
      "reviewed: true typed without an approval on record: the review",
      () => stepOf(REVIEWED, () => [], "p1", {}, false),
      { kind: "plan", missing: "review" },
    ],
    [
      "an open subtask without evidence: do the work, then verify",
      () => stepOf(REVIEWED),
      { kind: "implement", subtask: "p1.1" },
    ],
    [
      "a failed verification: fix it",
      () => stepOf(REVIEWED, (b) => evidence(b, "p1.1", "FAIL")),
      { kind: "fix", subtask: "p1.1" },
    ],
    [
      "evidence recorded, a manual check open: the user confirms",
      () => stepOf(REVIEWED, (b) => evidence(b, "p1.1")),
      { kind: "user", subtask: "p1.1" },
    ],
    [
      "evidence and confirmation recorded: tick the box",
      () =>
        stepOf(REVIEWED, (b) => [
          ...evidence(b, "p1.1"),
          recordFor(b, {
            kind: "confirmation",
            target: "p1.1",
            verdict: "PASS",
          }),
        ]),
      { kind: "tick", subtask: "p1.1" },
    ],
    [
      "stale evidence (the subtask changed after it) counts as none",
      () =>
        stepOf(
          REVIEWED.replace(
            "exports `LoginForm`",
            "exports `LoginForm` and `LoginButton`",
          ),
          () => evidence(playbookOf(REVIEWED), "p1.1"),
        ),
      { kind: "implement", subtask: "p1.1" },
    ],
    [
      "every subtask checked: the critic",
      () => stepOf(P1_DONE),
      { kind: "critic", phase: "p1" },
    ],
    [
      "the critic passed the phase: close it",
      () =>
        stepOf(P1_DONE, (b) => [
          recordFor(b, { kind: "critic", target: "p1", verdict: "PASS" }),
        ]),
      { kind: "close-phase", phase: "p1" },
    ],
    [
      "the critic failed the phase: fix",
      () =>
        stepOf(P1_DONE, (b) => [
          recordFor(b, { kind: "critic", target: "p1", verdict: "FAIL" }),
        ]),
      { kind: "fix", phase: "p1", subtask: null },
    ],
    [
      "the next phase waits for its dependency",
      () => stepOf(REVIEWED, () => [], "p2"),
      { kind: "waiting", phase: "p2" },
    ],
    [
      "the next phase is pending: start it",
      () =>
        stepOf(
          P1_DONE.replace("**status**: in_progress", "**status**: done"),
          () => [],
          "p1",
        ),
      { kind: "start-phase", phase: "p2" },
    ],
    [
      "a subtask for the user",
      () => stepOf(REVIEWED.replace("executor: claudecode", "executor: user")),
      { kind: "user", subtask: "p1.1" },
    ],
    [
      "a subtask for codex through the worker role",
      () =>
        stepOf(
          REVIEWED.replace("  - executor: claudecode\n", ""),
          () => [],
          "p1",
          { worker: "codex" },
        ),
      { kind: "delegate", subtask: "p1.1" },
    ],
    [
      "every phase done, a final task open",
      () =>
        stepOf(
          P1_DONE.replace("**status**: in_progress", "**status**: done")
            .replace("- [ ] **p2.1**", "- [x] **p2.1**")
            .replace("**status**: pending", "**status**: done"),
        ),
      { kind: "final-task", task: "ft1" },
    ],
    [
      "everything done",
      () =>
        stepOf(
          P1_DONE.replace("**status**: in_progress", "**status**: done")
            .replace("- [ ] **p2.1**", "- [x] **p2.1**")
            .replace("**status**: pending", "**status**: done")
            .replace("- [ ] **ft1**", "- [x] **ft1**"),
        ),
      { kind: "complete" },
    ],
  ])("%s", (_name, step, expected) => {
    const result = step();
    expect(result).toMatchObject(expected);
    expect(result.text.length).toBeGreaterThan(20);
  });

  it("names the command to run in the step text", () => {
    expect(stepOf(REVIEWED).text).toContain("`playbook verify p1.1`");
    expect(stepOf(REVIEWED, (b) => evidence(b, "p1.1")).text).toContain(
      "`playbook confirm p1.1`",
    );
    expect(stepOf(P1_DONE).text).toContain("/crit");
  });
});
