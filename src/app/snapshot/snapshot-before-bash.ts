import { KILL_SWITCH } from "../../core/guards/facts.ts";
import type { UncommittedFiles } from "../../adapters/uncommitted-files.ts";
import type { SecurityMode } from "../../core/model/state.ts";
import {
  takeSnapshot,
  type SnapshotDeps,
  type SnapshotOutcome,
} from "./take-snapshot.ts";

export interface BashSnapshotRequest {
  projectDir: string;
  session: string | null;
  command: string;
  security: SecurityMode;
  /** git's listing, started before the command was read (`startWorkListing`). */
  listing?: Promise<UncommittedFiles>;
}

/** What the hook adds to its answer: a refusal, or a fact for the model; both null when the snapshot was kept. */
export interface BashSnapshotAnswer {
  block: string | null;
  context: string | null;
  outcome: SnapshotOutcome;
}

/**
 * Before a shell command that may change files, the hook keeps a copy of the uncommitted work (take-snapshot.ts).
 * When it cannot, the command does not run silently: it is refused with the reason and what to do (docs/decisions.md,
 * "A snapshot that cannot be kept refuses the command"), and in developer mode, where destructive commands are
 * context only, it runs with a note.
 */
export async function snapshotBeforeBash(
  request: BashSnapshotRequest,
  deps: SnapshotDeps,
): Promise<BashSnapshotAnswer> {
  const outcome = await takeSnapshot(
    {
      root: request.projectDir,
      session: request.session,
      command: request.command,
      write: true,
      ...(request.listing ? { listing: request.listing } : {}),
    },
    deps,
  );
  if (outcome.kind === "failed") {
    const next = outcome.outOfTime
      ? "make the same call again (what was copied is kept, so the next try has less to copy)"
      : "commit your work (or `git stash` it), then run the command again";
    if (request.security === "developer")
      return {
        block: null,
        context: `playbook could not keep a copy of the uncommitted work before this command (${outcome.why}); developer mode runs it anyway, and \`playbook undo\` cannot bring back what it changes.`,
        outcome,
      };
    return {
      block: `Blocked: playbook keeps a copy of the uncommitted work before each shell command that may change files, and could not this time (${outcome.why}). Next: ${next}. ${KILL_SWITCH}`,
      context: null,
      outcome,
    };
  }
  if (outcome.kind === "taken" && outcome.newlySkipped.length > 0) {
    const named = outcome.newlySkipped
      .slice(0, 3)
      .map((s) => `\`${s.path}\` (${s.why})`)
      .join(", ");
    const more =
      outcome.newlySkipped.length > 3
        ? ` and ${outcome.newlySkipped.length - 3} more`
        : "";
    return {
      block: null,
      context: `playbook's snapshot ${outcome.id} before this command leaves out ${named}${more}: \`playbook undo\` cannot bring those back.`,
      outcome,
    };
  }
  return { block: null, context: null, outcome };
}
