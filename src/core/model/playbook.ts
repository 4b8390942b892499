import type { Span } from "./diagnostic.ts";
import type { YamlSection } from "./state.ts";

export const PHASE_STATUSES = ["pending", "in_progress", "done"] as const;
export type PhaseStatus = (typeof PHASE_STATUSES)[number];

/** Who can do a subtask (docs/playbook-format.md): an agent or tool, or a role resolved through meta, state.md and the toolstack. */
export const EXECUTORS = ["claudecode", "codex", "coderabbit", "user"] as const;
export const ROLE_NAMES = [
  "orchestrator",
  "worker",
  "reviewer",
  "human",
] as const;

export const VALIDATION_NAMES = [
  "technical",
  "consistency",
  "completeness",
] as const;
export type ValidationName = (typeof VALIDATION_NAMES)[number];

export const VALIDATION_KINDS = ["automated", "manual", "hybrid"] as const;
export type ValidationKind = (typeof VALIDATION_KINDS)[number] | "unspecified";

export type ValidationResult = "PASS" | "FAIL";

/** One of a subtask's three validations, e.g. `technical: "automated - npx tsc --noEmit"`. */
export interface Validation {
  kind: ValidationKind;
  /** The command (automated) or the check a person makes (manual). */
  text: string;
  /** A result written into the document (`"PASS - automated - ..."`); only records make it count. */
  result: ValidationResult | null;
  span: Span;
}

export interface Subtask {
  id: string;
  checked: boolean;
  criterion: string;
  executor: string | null;
  validations: Partial<Record<ValidationName, Validation>>;
  validated: string | null;
  dependsOn: string[];
  span: Span;
  /** Span of the `[ ]` / `[x]` marker. */
  checkbox: Span;
}

export interface PhaseLabel {
  value: string;
  span: Span;
}

export interface Phase {
  id: string;
  name: string;
  goal: string | null;
  dependsOn: string[];
  status: PhaseStatus;
  maxIterations: number | null;
  timeLimit: string | null;
  priority: string | null;
  subtasks: Subtask[];
  /** Every `**label**: value` line of the phase, by label. */
  labels: Record<string, PhaseLabel>;
  span: Span;
  heading: Span;
}

export interface FinalTask {
  id: string;
  checked: boolean;
  text: string;
  span: Span;
  checkbox: Span;
}

export interface PlaybookMeta {
  project: string | null;
  branch: string | null;
  created: string | null;
  issue: string | null;
  reviewed: boolean;
  roles: Record<string, string>;
}

export interface PlaybookGoal {
  summary: string | null;
  doneWhen: string[];
}

export interface Playbook {
  meta: PlaybookMeta;
  goal: PlaybookGoal;
  context: { text: string; span: Span } | null;
  phases: Phase[];
  finalTasks: FinalTask[];
  sections: {
    meta?: YamlSection;
    goal?: YamlSection;
    /** The `## phases` heading. */
    phases?: Span;
  };
}
