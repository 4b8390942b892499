import { describe, expect, it } from "vitest";
import {
  toGateFailure,
  toGateProgressLine,
  type GateRow,
} from "../../../../src/core/archive/final-gate.ts";

const row = (over: Partial<GateRow> = {}): GateRow => ({
  subtask: "p1.1",
  validation: "technical",
  command: "npm test",
  rerun: "PASS",
  exitCode: 0,
  outputTail: [],
  problem: null,
  ...over,
});

describe("the final gate's words", () => {
  it.each([
    [row(), "✓ p1.1 technical: npm test (exit 0)"],
    [
      row({ rerun: "FAIL", exitCode: 1, problem: "the validation fails" }),
      "✗ p1.1 technical: npm test (exit 1)",
    ],
    [
      row({
        exitCode: null,
        problem: "not run: the gate's time (90 s) ran out",
      }),
      "✗ p1.1 technical: npm test (did not run to an exit)",
    ],
  ])("progress line %#", (given, expected) => {
    expect(toGateProgressLine(given)).toBe(expected);
  });

  it("names a failing validation with its command, exit code and the end of its output, without control characters", () => {
    const failure = toGateFailure({
      rows: [
        row(),
        row({
          validation: "consistency",
          rerun: "FAIL",
          exitCode: 3,
          outputTail: ["line 1", "", "\u001b[31mexpected 6\u001b[0m", "got 5"],
          problem: "the validation fails",
        }),
      ],
      unproven: [],
    });

    expect(failure).toBe(
      "p1.1 consistency `npm test` (exit 3): the validation fails; its output ends: line 1 ⏎ [31mexpected 6 [0m ⏎ got 5",
    );
  });

  it("keeps the last five lines of output, each cut to 200 characters, and counts failures past three", () => {
    const failing = (id: string) =>
      row({
        subtask: id,
        rerun: "FAIL",
        exitCode: 1,
        outputTail: ["a", "b", "c", "d", "e", "f", "x".repeat(500)],
        problem: "the validation fails",
      });
    const failure = toGateFailure({
      rows: ["p1.1", "p1.2", "p1.3", "p1.4", "p1.5"].map(failing),
      unproven: [],
    });

    expect(failure).toContain(
      `its output ends: c ⏎ d ⏎ e ⏎ f ⏎ ${"x".repeat(199)}…`,
    );
    expect(failure).not.toContain("p1.4");
    expect(failure.endsWith("and 2 more")).toBe(true);
  });

  it("says what keeps the committed playbook from being finished as approved", () => {
    expect(
      toGateFailure({ rows: [row()], unproven: ["p1.1 is not checked"] }),
    ).toBe(
      "the committed playbook is not finished as approved: p1.1 is not checked",
    );
  });
});
