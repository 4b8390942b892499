import * as v from "valibot";
import { PHASE_STATUSES, VALIDATION_KINDS } from "../model/playbook.ts";
import { GOAL_STATUSES, SECURITY_MODES, TOOLSTACKS } from "../model/state.ts";
import type { DocumentSummary } from "./summary.ts";

const text = v.string();
const maybeText = v.nullable(v.string());
const texts = v.array(v.string());
const names = v.record(v.string(), v.string());
const slot = v.nullable(v.object({ start: v.number(), end: v.number() }));

const diagnostic = v.object({
  code: text,
  severity: v.picklist(["error", "warning"]),
  message: text,
  file: text,
  line: v.number(),
  column: v.number(),
});

const validation = v.object({
  kind: v.picklist([...VALIDATION_KINDS, "unspecified"]),
  result: v.nullable(v.picklist(["PASS", "FAIL"])),
  text,
});

const subtask = v.object({
  id: text,
  checked: v.boolean(),
  criterion: text,
  executor: maybeText,
  validations: v.object({
    technical: v.exactOptional(validation),
    consistency: v.exactOptional(validation),
    completeness: v.exactOptional(validation),
  }),
  validated: maybeText,
  dependsOn: texts,
});

const playbookSummary = v.object({
  kind: v.literal("playbook"),
  meta: v.object({
    project: maybeText,
    branch: maybeText,
    created: maybeText,
    issue: maybeText,
    reviewed: v.boolean(),
    roles: names,
  }),
  goal: v.object({ summary: maybeText, doneWhen: texts }),
  hasContext: v.boolean(),
  phases: v.array(
    v.object({
      id: text,
      name: text,
      status: v.picklist(PHASE_STATUSES),
      dependsOn: texts,
      maxIterations: v.nullable(v.number()),
      subtasks: v.array(subtask),
    }),
  ),
  finalTasks: v.array(v.object({ id: text, checked: v.boolean(), text })),
  hashes: v.object({ review: text, phases: names, subtasks: names }),
  diagnostics: v.array(diagnostic),
});

const stateSummary = v.object({
  kind: v.literal("state"),
  playbook: v.object({
    active: maybeText,
    branch: maybeText,
    lastArchived: maybeText,
  }),
  goal: v.object({
    milestone: maybeText,
    phase: maybeText,
    doneCriteria: texts,
    status: v.nullable(v.picklist(GOAL_STATUSES)),
  }),
  session: v.object({ lastStart: maybeText, lastEnd: maybeText }),
  stamps: v.object({ lastStart: slot, lastEnd: slot }),
  config: v.object({
    security: v.picklist(SECURITY_MODES),
    toolstack: v.picklist(TOOLSTACKS),
    roles: names,
  }),
  diagnostics: v.array(diagnostic),
});

/** The shape a cached summary must have before the hook path trusts it. */
export const documentSummarySchema = v.variant("kind", [
  playbookSummary,
  stateSummary,
]);

// The schema and the TypeScript types must describe the same data: these fail to compile if they drift apart.
type SchemaOutput = v.InferOutput<typeof documentSummarySchema>;
export const schemaMatchesType = (value: SchemaOutput): DocumentSummary =>
  value;
export const typeMatchesSchema = (value: DocumentSummary): SchemaOutput =>
  value;

export function isDocumentSummary(value: unknown): value is DocumentSummary {
  return v.is(documentSummarySchema, value);
}
