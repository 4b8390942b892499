import { describe, expect, it } from "vitest";
import {
  diffPlanOutlines,
  readPlanOutline,
  type PlanOutline,
} from "../../../../src/core/records/plan-outline.ts";

const approved: PlanOutline = {
  goal: "log in",
  subtasks: [
    {
      id: "p1.1",
      criterion: "the form renders",
      validations: {
        technical: { kind: "automated", text: "npm test" },
        completeness: { kind: "manual", text: "looks like the design" },
      },
    },
    { id: "p1.2", criterion: "errors show", validations: {} },
  ],
};

describe("the plan as approved against the plan now", () => {
  it("names each changed criterion, validation, and added or removed subtask", () => {
    const now: PlanOutline = {
      goal: "log in",
      subtasks: [
        {
          id: "p1.1",
          criterion: "the form renders and submits",
          validations: {
            technical: { kind: "automated", text: "true" },
            completeness: { kind: "manual", text: "looks like the design" },
          },
        },
        { id: "p1.3", criterion: "remember me", validations: {} },
      ],
    };
    expect(diffPlanOutlines(approved, now)).toEqual([
      {
        target: "p1.1",
        what: "criterion",
        before: "the form renders",
        after: "the form renders and submits",
      },
      {
        target: "p1.1",
        what: "validation",
        validation: "technical",
        before: "automated - npm test",
        after: "automated - true",
      },
      { target: "p1.3", what: "added", before: null, after: "remember me" },
      { target: "p1.2", what: "removed", before: "errors show", after: null },
    ]);
    expect(diffPlanOutlines(approved, approved)).toEqual([]);
  });

  it("reads back only a well-formed outline", () => {
    expect(readPlanOutline({ plan: approved })).toEqual(approved);
    expect(readPlanOutline({})).toBeNull();
    expect(readPlanOutline({ plan: { subtasks: [{ id: 1 }] } })).toBeNull();
    expect(readPlanOutline({ plan: "x" })).toBeNull();
  });
});
