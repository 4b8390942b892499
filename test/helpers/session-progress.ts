import type { PlaybookProgress } from "../../src/core/session/session-summary.ts";

/** The sample playbook's progress as the session events see it: p1 half done, p1.1 next. */
export const PROGRESS: PlaybookProgress = {
  path: "plan/playbook-login-form.md",
  branch: "feat/login-form",
  goal: "Users can log in with email and password",
  reviewed: true,
  phase: { id: "p1", name: "Form component", checked: 1, total: 2 },
  checked: 1,
  total: 3,
  next: {
    kind: "implement",
    phase: "p1",
    subtask: "p1.1",
    text: "p1.1 (x): do the work, then run `playbook verify p1.1` to record the evidence.",
  },
  open: [{ id: "p1.1", criterion: "`src/login-form.tsx` exports `LoginForm`" }],
};
