import type { Diagnostic } from "./diagnostic.ts";
import type {
  PhaseStatus,
  Playbook,
  ValidationKind,
  ValidationName,
  ValidationResult,
} from "./playbook.ts";
import type { StateDoc } from "./state.ts";

/** What the hook path needs from a playbook, without positions: small to store and fast to read. */
export interface PlaybookSummary {
  kind: "playbook";
  meta: Playbook["meta"];
  goal: Playbook["goal"];
  hasContext: boolean;
  phases: {
    id: string;
    name: string;
    status: PhaseStatus;
    dependsOn: string[];
    maxIterations: number | null;
    subtasks: {
      id: string;
      checked: boolean;
      criterion: string;
      executor: string | null;
      validations: Partial<
        Record<
          ValidationName,
          {
            kind: ValidationKind;
            result: ValidationResult | null;
            text: string;
          }
        >
      >;
      validated: string | null;
      dependsOn: string[];
    }[];
  }[];
  finalTasks: { id: string; checked: boolean; text: string }[];
  /** Record hashes (see records/content-hash.ts): the review's, each phase's and each subtask's. */
  hashes: {
    review: string;
    phases: Record<string, string>;
    subtasks: Record<string, string>;
  };
  diagnostics: Diagnostic[];
}

/** Where a `## session` value sits in the text (UTF-16 offsets), so the hook can rewrite it without the parser. */
export interface StampSlot {
  start: number;
  end: number;
}

export interface StateSummary {
  kind: "state";
  playbook: StateDoc["playbook"];
  goal: StateDoc["goal"];
  session: StateDoc["session"];
  config: StateDoc["config"];
  /** The values of `last_start` and `last_end`; null when the key is missing or its block does not parse. */
  stamps: { lastStart: StampSlot | null; lastEnd: StampSlot | null };
  diagnostics: Diagnostic[];
}

export type DocumentSummary = PlaybookSummary | StateSummary;
export type DocumentKind = DocumentSummary["kind"];
