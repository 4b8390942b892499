import { readArchiveJournal } from "../../adapters/archive-journal-store.ts";
import {
  clearPostLoopLock,
  readPostLoopLock,
} from "../../adapters/runtime-files.ts";
import type { PostLoopLock } from "../../core/guards/types.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";

/**
 * `playbook post-loop` (docs/archive.md): lifts the post-loop lock the archive set and says how to pick the next task. What
 * the lock said is kept in `.claude/playbook/logs/locks.log`.
 */
export function runPostLoop(
  root: string,
  now: Date,
): { lock: PostLoopLock | null; guidance: string[] } {
  const lock = readPostLoopLock(root);
  const journal = readArchiveJournal(root);
  const unfinished =
    journal.status === "ok" && journal.journal.status !== "success"
      ? journal.journal
      : null;
  if (lock) clearPostLoopLock(root, "playbook post-loop", toIsoTime(now));
  const guidance: string[] = [];
  if (lock)
    guidance.push(
      `${lock.playbook ?? "The last playbook"} was archived${lock.pr ? ` (${lock.pr})` : ""} with status ${lock.status}; the lock is lifted.`,
    );
  else guidance.push("No post-loop lock was set.");
  if (unfinished?.status === "pending" && unfinished.pending)
    guidance.push(
      `The merge of ${unfinished.playbook} is pending: ${unfinished.pending.what}. Next: ${unfinished.pending.next}.`,
    );
  else if (unfinished)
    guidance.push(
      `The archive of ${unfinished.playbook} is unfinished${unfinished.next ? `: ${unfinished.next}` : ""}. Run \`playbook archive --resume\` first.`,
    );
  guidance.push(
    "Next task: ask the user what to do next, then start with Skill(playbook-init): the pm subagent writes the playbook (with the understanding check), the reviewer approves it, and work begins on its branch.",
  );
  return { lock, guidance };
}
