import type { Span } from "./diagnostic.ts";

export const STATE_SECTIONS = [
  "playbook",
  "goal",
  "session",
  "config",
] as const;
export type StateSectionName = (typeof STATE_SECTIONS)[number];

export const GOAL_STATUSES = ["idle", "in_progress", "done"] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export const SECURITY_MODES = [
  "strict",
  "trusted",
  "admin",
  "developer",
] as const;
export type SecurityMode = (typeof SECURITY_MODES)[number];

export const TOOLSTACKS = ["A", "B", "C"] as const;
export type Toolstack = (typeof TOOLSTACKS)[number];

/** A `## name` section holding one fenced yaml block, with the position of every top-level key. */
export interface YamlSection {
  name: string;
  /** The whole section: from its heading to the next heading of its level (or the frontmatter block). */
  span: Span;
  /** Span of the yaml block's content (between the fences), or null when the section has no block. */
  block: Span | null;
  /** Whether the block parsed as a mapping; when false, its keys are unknown rather than missing. */
  parsed: boolean;
  /** Span of each top-level key's value, for precise diagnostics and surgical writes. */
  fields: Record<string, Span>;
  /** Span of each top-level key. */
  keys: Record<string, Span>;
  /** Spans of the items of each top-level list value. */
  items: Record<string, Span[]>;
}

export interface StateDoc {
  playbook: {
    active: string | null;
    branch: string | null;
    lastArchived: string | null;
  };
  goal: {
    milestone: string | null;
    phase: string | null;
    doneCriteria: string[];
    status: GoalStatus | null;
  };
  session: {
    lastStart: string | null;
    lastEnd: string | null;
  };
  config: {
    security: SecurityMode;
    toolstack: Toolstack;
    roles: Record<string, string>;
  };
  sections: Partial<Record<StateSectionName, YamlSection>>;
}
