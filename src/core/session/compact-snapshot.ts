import * as v from "valibot";

const SNAPSHOT = v.object({
  version: v.literal(1),
  session: v.string(),
  at: v.string(),
  trigger: v.nullable(v.string()),
  branch: v.nullable(v.string()),
  /** `git log --oneline` of the newest commits. */
  commits: v.array(v.string()),
  /** `git status --porcelain` lines: what was changed and not committed. */
  changed: v.array(v.string()),
  playbook: v.nullable(
    v.object({
      path: v.string(),
      phase: v.nullable(v.string()),
      checked: v.number(),
      total: v.number(),
      open: v.array(v.object({ id: v.string(), criterion: v.string() })),
      next: v.string(),
    }),
  ),
  /** Recent tool failures and refusals of this session. */
  errors: v.array(v.string()),
});

/**
 * What PreCompact saves so the session can carry on after compaction: PreCompact cannot talk to the model, so
 * SessionStart (source `compact`) injects it.
 */
export type CompactSnapshot = v.InferOutput<typeof SNAPSHOT>;

/** A stored snapshot checked against its schema: a corrupt one is a problem to report, never half-trusted. */
export function toCompactSnapshot(
  json: unknown,
): { ok: true; snapshot: CompactSnapshot } | { ok: false; problem: string } {
  const result = v.safeParse(SNAPSHOT, json);
  if (result.success) return { ok: true, snapshot: result.output };
  const issue = result.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join(".") ?? "the file";
  return {
    ok: false,
    problem: `the snapshot PreCompact saved is unreadable (${json === undefined ? "not JSON" : `\`${path}\`: ${issue.message}`})`,
  };
}
