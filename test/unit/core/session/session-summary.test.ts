import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PROGRESS } from "../../../helpers/session-progress.ts";
import type { CompactSnapshot } from "../../../../src/core/session/compact-snapshot.ts";
import { toCompactSnapshot } from "../../../../src/core/session/compact-snapshot.ts";
import {
  renderPromptStatus,
  renderSessionSummary,
  type SessionSummaryInput,
} from "../../../../src/core/session/session-summary.ts";
import {
  isSessionGone,
  emptySessionState,
} from "../../../../src/core/session/session-state.ts";

const BASE: SessionSummaryInput = {
  source: "startup",
  playbook: PROGRESS,
  gitBranch: "feat/login-form",
  lock: null,
  lockCleared: null,
  problems: [],
  snapshot: null,
};

const SNAPSHOT: CompactSnapshot = {
  version: 1,
  session: "s1",
  at: "2026-11-23T10:00:00.000Z",
  trigger: "auto",
  branch: "feat/login-form",
  commits: ["abc1234 feat: form skeleton"],
  changed: [" M src/login-form.tsx"],
  playbook: {
    path: PROGRESS.path,
    phase: "p1",
    checked: 1,
    total: 3,
    open: PROGRESS.open,
    next: "p1.1: verify",
  },
  errors: ["Bash: Exit code 1"],
};

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe("renderSessionSummary", () => {
  it("says which playbook, phase, next step and open subtasks", () => {
    const text = renderSessionSummary(BASE, 1500);
    expect(text).toContain(
      "Active playbook: plan/playbook-login-form.md on branch feat/login-form, reviewed.",
    );
    expect(text).toContain(
      "Phase p1 (Form component): 1/2 subtasks checked; 1/3 in all.",
    );
    expect(text).toContain("Next: p1.1");
    expect(text).toContain(
      "Open: p1.1 `src/login-form.tsx` exports `LoginForm`",
    );
  });

  it("points at playbook-init without a playbook, and at /post-loop under the lock", () => {
    expect(renderSessionSummary({ ...BASE, playbook: null }, 1500)).toContain(
      "Skill(playbook-init)",
    );
    const locked = renderSessionSummary(
      {
        ...BASE,
        playbook: null,
        lock: {
          status: "success",
          playbook: "plan/archive/playbook-x.md",
          pr: "#7",
          at: null,
          session: "s0",
        },
      },
      1500,
    );
    expect(locked).toContain("/post-loop");
    expect(locked).toContain("PR #7");
    expect(locked).not.toContain("Skill(playbook-init)");
  });

  it("puts the compaction snapshot first, and says so when it is unreadable", () => {
    const text = renderSessionSummary(
      {
        ...BASE,
        source: "compact",
        snapshot: { ok: true, snapshot: SNAPSHOT },
      },
      1500,
    );
    expect(text.split("\n")[0]).toContain("Restored after compaction");
    expect(text).toContain("Uncommitted:  M src/login-form.tsx");
    expect(text).toContain("Recent errors: Bash: Exit code 1");
    const broken = toCompactSnapshot({ version: 1, session: 3 });
    expect(broken.ok).toBe(false);
    const text2 = renderSessionSummary(
      { ...BASE, source: "compact", snapshot: broken },
      1500,
    );
    expect(text2.split("\n")[0]).toMatch(
      /^playbook: the snapshot PreCompact saved is unreadable/,
    );
    expect(text2).toContain("Active playbook");
  });

  it("stays within the byte budget whatever the documents hold, never splitting a character", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 3000 }),
        fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), {
          maxLength: 20,
        }),
        fc.string({ unit: "grapheme", maxLength: 2000 }),
        (budget, criteria, goal) => {
          const input: SessionSummaryInput = {
            ...BASE,
            source: "compact",
            snapshot: {
              ok: true,
              snapshot: { ...SNAPSHOT, changed: criteria, errors: criteria },
            },
            playbook: {
              ...PROGRESS,
              goal,
              open: criteria.map((criterion, i) => ({
                id: `p1.${i}`,
                criterion,
              })),
            },
            problems: criteria,
          };
          const text = renderSessionSummary(input, budget);
          expect(bytes(text)).toBeLessThanOrEqual(budget);
          // Cut on character boundaries: no lone surrogate, so the UTF-8 round trip is exact.
          expect(text).not.toMatch(
            /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
          );
          expect(Buffer.from(text, "utf8").toString("utf8")).toBe(text);
          expect(text.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("renderPromptStatus", () => {
  it("is one short line", () => {
    const line = renderPromptStatus(PROGRESS, null, "feat/login-form");
    expect(line).toBe(
      "playbook: plan/playbook-login-form.md · p1 1/2 · 1/3 subtasks · next: p1.1 (do it, then playbook verify p1.1) · branch feat/login-form",
    );
    expect(renderPromptStatus(null, null, "main")).toBe(
      "playbook: no active playbook · branch main",
    );
  });
});

describe("isSessionGone", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  it.each([
    ["never seen", null, true],
    [
      "ended",
      {
        ...emptySessionState(),
        lastSeen: "2026-11-23T11:59:00Z",
        ended: "2026-11-23T11:59:30Z",
      },
      true,
    ],
    [
      "silent for 3 hours",
      { ...emptySessionState(), lastSeen: "2026-11-23T09:00:00Z" },
      true,
    ],
    [
      "seen a minute ago",
      { ...emptySessionState(), lastSeen: "2026-11-23T11:59:00Z" },
      false,
    ],
    [
      "started and never seen since, recently",
      { ...emptySessionState(), started: "2026-11-23T11:30:00Z" },
      false,
    ],
  ])("%s → %s", (_name, state, gone) => {
    expect(isSessionGone(state, now, 120)).toBe(gone);
  });
});
