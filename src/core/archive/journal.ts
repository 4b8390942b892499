import * as v from "valibot";
import { PENDING_KINDS } from "./merge-policy.ts";

export const ARCHIVE_STEPS = [
  "commit",
  "push",
  "open-pr",
  "archive-playbook",
  "reset-state",
  "merge",
  "cleanup",
  "lock",
] as const;
export type ArchiveStepId = (typeof ARCHIVE_STEPS)[number];

const STEP_RESULT = v.object({
  status: v.picklist(["done", "skipped", "failed"]),
  at: v.string(),
  detail: v.string(),
});

const JOURNAL = v.object({
  version: v.literal(1),
  id: v.string(),
  playbook: v.string(),
  archivePath: v.string(),
  branch: v.string(),
  defaultBranch: v.string(),
  provider: v.picklist(["github", "local"]),
  title: v.string(),
  body: v.string(),
  session: v.nullable(v.string()),
  startedAt: v.string(),
  /** `pending`: merged by no one yet, as `archive.merge` asks; GitHub or a person merges, `--resume` then finishes. */
  status: v.picklist(["running", "partial", "pending", "success"]),
  pr: v.nullable(v.object({ number: v.number(), url: v.string() })),
  steps: v.record(v.string(), STEP_RESULT),
  /** The one thing to do before `playbook archive --resume`, when the archive stopped. */
  next: v.nullable(v.string()),
  /** What the merge waits for under `archive.merge`, while the archive is `pending`. */
  pending: v.optional(
    v.nullable(
      v.object({
        kind: v.picklist(PENDING_KINDS),
        what: v.string(),
        next: v.string(),
      }),
    ),
  ),
  /**
   * Set by the commit step: the paths it committed, and the untracked files it left alone (not staged, not written
   * by the agent's file tools), each sorted.
   */
  files: v.optional(
    v.object({
      committed: v.array(v.string()),
      leftAlone: v.array(v.string()),
    }),
  ),
});

/** `.claude/playbook/archive-journal.json`: which playbook is being archived and how far the steps got. */
export type ArchiveJournal = v.InferOutput<typeof JOURNAL>;
export type StepResult = v.InferOutput<typeof STEP_RESULT>;

/** A stored journal, or why it cannot be used (the archive then refuses to guess). */
export function toArchiveJournal(
  json: unknown,
): { ok: true; journal: ArchiveJournal } | { ok: false; problem: string } {
  const result = v.safeParse(JOURNAL, json);
  if (result.success) return { ok: true, journal: result.output };
  const issue = result.issues[0];
  return {
    ok: false,
    problem: `the archive journal is unreadable (\`${issue.path?.map((p) => String(p.key)).join(".") ?? "the file"}\`: ${issue.message})`,
  };
}

/** `plan/playbook-x.md` → `plan/archive/playbook-x.md`, or a dated name when an earlier playbook took that one. */
export function archivePathFor(
  playbook: string,
  taken: (path: string) => boolean,
  date: string,
): string {
  const name = playbook.slice(playbook.lastIndexOf("/") + 1);
  const plain = `plan/archive/${name}`;
  if (!taken(plain)) return plain;
  const dated = `plan/archive/${name.replace(/\.md$/, "")}.${date}.md`;
  for (let n = 2; ; n++) {
    const candidate = n === 2 ? dated : dated.replace(/\.md$/, `-${n - 1}.md`);
    if (!taken(candidate)) return candidate;
  }
}

/** The `state.md` edits after archiving (docs/archive.md step 5): no active playbook, the goal reset. */
export function stateResetEdits(archivePath: string): {
  section: "playbook" | "goal";
  key: string;
  value: string | null | readonly string[];
}[] {
  return [
    { section: "playbook", key: "active", value: null },
    { section: "playbook", key: "branch", value: null },
    { section: "playbook", key: "last_archived", value: archivePath },
    { section: "goal", key: "milestone", value: null },
    { section: "goal", key: "phase", value: null },
    { section: "goal", key: "done_criteria", value: [] },
    { section: "goal", key: "status", value: "idle" },
  ];
}
