import { describe, expect, it } from "vitest";
import { summarizePlaybook } from "../../../../src/core/cache/summary.ts";
import {
  setPhaseStatus,
  setReviewed,
  setTaskChecked,
  setValidated,
  setValidation,
} from "../../../../src/core/edit/playbook-writers.ts";
import type { EditResult } from "../../../../src/core/edit/text-edit.ts";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import {
  phaseHash,
  playbookHashes,
  reviewHash,
  sameReviewedPlan,
  subtaskHash,
} from "../../../../src/core/records/content-hash.ts";
import { SAMPLE_PLAYBOOK } from "../../../helpers/sample-docs.ts";

function summary(text: string) {
  const parsed = parsePlaybook(text, "plan/playbook-login-form.md");
  return summarizePlaybook(parsed.value, parsed.diagnostics);
}

function applied(result: EditResult): string {
  if (!result.ok) throw new Error(`edit refused: ${result.reason}`);
  return result.text;
}

function replaced(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

const BASE = summary(SAMPLE_PLAYBOOK);

type Change = [string, (text: string) => string];

/** Progress and bookkeeping: none of it is what a reviewer approves. */
const PROGRESS: Change[] = [
  ["checking p1.1", (t) => applied(setTaskChecked(t, "p1.1", true))],
  ["unchecking p1.2", (t) => applied(setTaskChecked(t, "p1.2", false))],
  ["checking ft1", (t) => applied(setTaskChecked(t, "ft1", true))],
  ["a phase status", (t) => applied(setPhaseStatus(t, "p1", "done"))],
  [
    "a validation result",
    (t) => applied(setValidation(t, "p1.1", "technical", { result: "PASS" })),
  ],
  [
    "a validated stamp",
    (t) => applied(setValidated(t, "p1.1", "2026-11-21T10:00:00Z")),
  ],
  ["reviewed: true", (t) => applied(setReviewed(t, true))],
  ["the meta's issue", (t) => replaced(t, "issue: null", "issue: 42")],
  [
    "max_iterations",
    (t) => replaced(t, "**max_iterations**: 5", "**max_iterations**: 9"),
  ],
];

/** The plan itself: a reviewer approved exactly this. */
const PLAN: Change[] = [
  [
    "a criterion",
    (t) => replaced(t, "exports `LoginForm`", "exports `LoginPage`"),
  ],
  [
    "a validation text",
    (t) => replaced(t, 'test/login-form.test.ts"', 'test/other.test.ts"'),
  ],
  [
    "a validation kind",
    (t) =>
      replaced(
        t,
        "completeness: manual - the error",
        "completeness: hybrid - the error",
      ),
  ],
  [
    "done_when",
    (t) =>
      replaced(t, "including test/login.test.ts", "including test/x.test.ts"),
  ],
  [
    "the goal summary",
    (t) => replaced(t, "Users can log in", "Users can sign in"),
  ],
  ["a phase name", (t) => replaced(t, "### p2: Submit", "### p2: Send")],
  [
    "a phase's depends_on",
    (t) => replaced(t, "**depends_on**: [p1]", "**depends_on**: []"),
  ],
  [
    "a subtask's depends_on",
    (t) => replaced(t, "  - depends_on: [p1.1]", "  - depends_on: []"),
  ],
  [
    "an executor",
    (t) => replaced(t, "executor: claudecode", "executor: codex"),
  ],
  ["a final task", (t) => replaced(t, '"Login form" entry', '"Sign-in" entry')],
  [
    "the context",
    (t) =>
      replaced(
        t,
        "Who: the web team. What: a login form. Why: users cannot sign in yet.\n",
        "",
      ),
  ],
];

describe("reviewHash", () => {
  it("is a sha256 and the same for the same plan", () => {
    expect(reviewHash(BASE)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(reviewHash(summary(SAMPLE_PLAYBOOK))).toBe(reviewHash(BASE));
  });

  it("survives a round trip through JSON (the parse cache)", () => {
    expect(reviewHash(JSON.parse(JSON.stringify(BASE)) as typeof BASE)).toBe(
      reviewHash(BASE),
    );
  });

  it.each(PROGRESS)("ignores %s", (_name, change) => {
    expect(reviewHash(summary(change(SAMPLE_PLAYBOOK)))).toBe(reviewHash(BASE));
  });

  it.each(PLAN)("changes with %s", (_name, change) => {
    expect(reviewHash(summary(change(SAMPLE_PLAYBOOK)))).not.toBe(
      reviewHash(BASE),
    );
  });
});

describe("sameReviewedPlan", () => {
  /** As the parse cache gives it back: the hashes are a value. */
  const stored = (text: string) =>
    JSON.parse(JSON.stringify(summary(text))) as ReturnType<typeof summary>;

  it.each(PROGRESS)(
    "says the plan is the same after %s, whether the hashes are stored or computed on first read",
    (_name, change) => {
      const after = change(SAMPLE_PLAYBOOK);
      expect(sameReviewedPlan(BASE, summary(after))).toBe(true);
      expect(sameReviewedPlan(stored(SAMPLE_PLAYBOOK), summary(after))).toBe(
        true,
      );
      expect(sameReviewedPlan(stored(SAMPLE_PLAYBOOK), stored(after))).toBe(
        true,
      );
    },
  );

  it.each(PLAN)(
    "says it changed with %s, whether the hashes are stored or computed on first read",
    (_name, change) => {
      const after = change(SAMPLE_PLAYBOOK);
      expect(sameReviewedPlan(BASE, summary(after))).toBe(false);
      expect(sameReviewedPlan(stored(SAMPLE_PLAYBOOK), summary(after))).toBe(
        false,
      );
      expect(sameReviewedPlan(stored(SAMPLE_PLAYBOOK), stored(after))).toBe(
        false,
      );
    },
  );
});

describe("phaseHash", () => {
  it("is null for an unknown phase and differs between phases", () => {
    expect(phaseHash(BASE, "p9")).toBeNull();
    expect(phaseHash(BASE, "p1")).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(phaseHash(BASE, "p1")).not.toBe(phaseHash(BASE, "p2"));
  });

  it.each<Change>([
    ["checking a subtask", (t) => applied(setTaskChecked(t, "p1.1", true))],
    ["unchecking a subtask", (t) => applied(setTaskChecked(t, "p1.2", false))],
    ["a criterion", PLAN[0]![1]],
    ["a validation text", PLAN[1]![1]],
  ])("changes with %s", (_name, change) => {
    expect(phaseHash(summary(change(SAMPLE_PLAYBOOK)), "p1")).not.toBe(
      phaseHash(BASE, "p1"),
    );
  });

  it.each<Change>([
    ["its status", (t) => applied(setPhaseStatus(t, "p1", "done"))],
    [
      "a validation result",
      (t) => applied(setValidation(t, "p1.1", "technical", { result: "PASS" })),
    ],
    ["reviewed", (t) => applied(setReviewed(t, true))],
    ["another phase", (t) => applied(setTaskChecked(t, "p2.1", true))],
    ["the goal", (t) => replaced(t, "Users can log in", "Users can sign in")],
  ])("ignores %s", (_name, change) => {
    expect(phaseHash(summary(change(SAMPLE_PLAYBOOK)), "p1")).toBe(
      phaseHash(BASE, "p1"),
    );
  });
});

describe("subtaskHash", () => {
  it("is null for an unknown subtask and differs between subtasks", () => {
    expect(subtaskHash(BASE, "p9.9")).toBeNull();
    expect(subtaskHash(BASE, "p1.1")).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(subtaskHash(BASE, "p1.1")).not.toBe(subtaskHash(BASE, "p1.2"));
  });

  it.each<Change>([
    ["its checkbox", (t) => applied(setTaskChecked(t, "p1.1", true))],
    [
      "its validation results",
      (t) => applied(setValidation(t, "p1.1", "technical", { result: "FAIL" })),
    ],
    [
      "its validated stamp",
      (t) => applied(setValidated(t, "p1.1", "2026-11-21")),
    ],
    ["its phase status", (t) => applied(setPhaseStatus(t, "p1", "done"))],
    [
      "another subtask",
      (t) => replaced(t, 'shows "Email is required"', 'shows "Email missing"'),
    ],
  ])("ignores %s", (_name, change) => {
    expect(subtaskHash(summary(change(SAMPLE_PLAYBOOK)), "p1.1")).toBe(
      subtaskHash(BASE, "p1.1"),
    );
  });

  it.each<Change>([
    ["its criterion", PLAN[0]![1]],
    ["a validation text", PLAN[1]![1]],
    ["a validation kind", PLAN[2]![1]],
    ["its executor", PLAN[8]![1]],
  ])("changes with %s", (_name, change) => {
    expect(subtaskHash(summary(change(SAMPLE_PLAYBOOK)), "p1.1")).not.toBe(
      subtaskHash(BASE, "p1.1"),
    );
  });
});

describe("playbookHashes", () => {
  it("stores, for every phase and subtask id, the hash phaseHash and subtaskHash give, the first of a duplicated id included", () => {
    // p1.1 and p2 appear twice: the first of each is the one the hash covers.
    const text = SAMPLE_PLAYBOOK.replace("**p2.1**", "**p1.1**").replace(
      "## final_tasks",
      "### p2: Again\n- [ ] **p2.9**: another\n\n## final_tasks",
    );
    const view = summary(text);
    const ids = view.phases.flatMap((p) => p.subtasks.map((s) => s.id));
    expect(ids.filter((id) => id === "p1.1")).toHaveLength(2);
    expect(view.phases.filter((p) => p.id === "p2")).toHaveLength(2);
    const hashes = playbookHashes(view);
    expect(hashes.review).toBe(reviewHash(view));
    for (const phase of view.phases) {
      expect(hashes.phases[phase.id]).toBe(phaseHash(view, phase.id));
      for (const subtask of phase.subtasks)
        expect(hashes.subtasks[subtask.id]).toBe(subtaskHash(view, subtask.id));
    }
    expect(Object.keys(hashes.subtasks).sort()).toEqual(
      [...new Set(ids)].sort(),
    );
  });
});
