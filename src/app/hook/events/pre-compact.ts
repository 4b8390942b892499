import {
  readChangedFiles,
  readRecentCommits,
} from "../../../adapters/git-facts.ts";
import {
  readSessionState,
  writeCompactSnapshot,
} from "../../../adapters/session-store.ts";
import type { GuardContext } from "../../../core/guards/types.ts";
import type { CompactSnapshot } from "../../../core/session/compact-snapshot.ts";
import { playbookProgress } from "../../../core/session/playbook-progress.ts";
import { toIsoTime } from "../../../core/time/iso-time.ts";
import type { HookAnswer } from "../../../hooks/reply.ts";

const LISTED = 20;

/**
 * PreCompact (docs/sessions.md): saves what the session needs to carry on (branch, last commits, changed files, playbook
 * progress, open subtasks, recent errors). PreCompact cannot talk to the model; SessionStart `compact` injects it.
 */
export function runPreCompact(
  ctx: GuardContext,
  trigger: string | null,
  deps: { now: () => Date },
): HookAnswer {
  const sessionId = ctx.sessionId;
  if (!sessionId) return { block: null, context: [], notice: null };
  const progress = playbookProgress(ctx);
  const failures = readSessionState(ctx.projectDir, sessionId)?.failures ?? [];
  const snapshot: CompactSnapshot = {
    version: 1,
    session: sessionId,
    at: toIsoTime(deps.now()),
    trigger,
    branch: ctx.git.branch,
    commits: readRecentCommits(ctx.projectDir, 5),
    changed: readChangedFiles(ctx.projectDir).slice(0, LISTED),
    playbook: progress && {
      path: progress.path,
      phase: progress.phase?.id ?? null,
      checked: progress.checked,
      total: progress.total,
      open: progress.open,
      next: progress.next.text,
    },
    errors: failures.slice(-3).map((f) => f.summary),
  };
  try {
    writeCompactSnapshot(ctx.projectDir, sessionId, snapshot);
  } catch {
    // The session start after compaction then says the snapshot is missing and shows the current state instead.
  }
  return { block: null, context: [], notice: null };
}
