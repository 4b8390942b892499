import { readDocumentText } from "../../adapters/read-document.ts";
import { join } from "node:path";
import { writeTextAtomic } from "../../adapters/atomic-write.ts";
import { isConflict } from "../../core/archive/git-status.ts";
import {
  resolveStateConflicts,
  type ArchiveSide,
} from "../../core/archive/state-merge.ts";
import { RESUME, StepFailure, type StepContext } from "./step-kit.ts";

export type MergeResult =
  | { merged: true; sha: string; stateResolved: boolean }
  | { merged: false; conflicts: string[] };

/**
 * Merges `ref` into HEAD with a merge commit. Branches archived in parallel from one commit all rewrite state.md's
 * bookkeeping, so state.md's conflicts are resolved (`resolveStateConflicts`). Any other conflict is a person's:
 * with `abort` the merge is aborted and the tree left as it was; with `leave` it stays in progress, state.md
 * resolved and staged, the other files conflicted for a person to resolve and commit.
 */
export async function mergeKeepingState(
  ctx: StepContext,
  ref: string,
  message: string,
  archiveSide: ArchiveSide,
  onConflict: "abort" | "leave",
): Promise<MergeResult> {
  const { git } = ctx;
  let stateResolved = false;
  try {
    await git.mergeNoFf(ref, message);
  } catch (error) {
    const conflicts = (await git.status()).entries
      .filter(isConflict)
      .map((entry) => entry.path);
    if (conflicts.length === 0) throw error;
    const others = conflicts.filter((path) => path !== "state.md");
    if (others.length > 0 && onConflict === "abort") {
      await git.abortMerge();
      return { merged: false, conflicts };
    }
    stateResolved =
      conflicts.includes("state.md") && (await resolveState(ctx, archiveSide));
    const left = stateResolved ? others : conflicts;
    if (left.length > 0) {
      if (onConflict === "abort") await git.abortMerge();
      return { merged: false, conflicts: left };
    }
    await git.commit(message);
  }
  const sha = await git.resolve("HEAD");
  if (sha === null)
    throw new Error("HEAD does not name a commit after a merge");
  return { merged: true, sha, stateResolved };
}

/** Writes and stages state.md with its conflicts resolved; false when one is not the archive's bookkeeping. */
async function resolveState(
  ctx: StepContext,
  archiveSide: ArchiveSide,
): Promise<boolean> {
  const path = join(ctx.root, "state.md");
  const resolved = resolveStateConflicts(
    readDocumentText(path, "state", "state.md"),
    archiveSide,
  );
  if (resolved === null) return false;
  writeTextAtomic(path, resolved);
  await ctx.git.addAll(["state.md"]);
  return true;
}

/**
 * Merges the default branch (`upstream`, as `<remote>/<branch>` or the local branch) into the playbook's branch,
 * which is checked out here: what a person does when their branch conflicts with work merged meanwhile. State.md's
 * bookkeeping is resolved; the rest, if anything, is left in progress for a person, and the archive stops saying
 * which files. Returns the merge commit.
 */
export async function mergeDefaultIntoBranch(
  ctx: StepContext,
  upstreamRef: string,
  upstream: string,
): Promise<string> {
  const { journal } = ctx;
  const result = await mergeKeepingState(
    ctx,
    upstreamRef,
    `Merge ${upstream} into ${journal.branch}`,
    "ours",
    "leave",
  );
  if (result.merged) return result.sha;
  const files = result.conflicts.join(", ");
  throw new StepFailure(
    `${journal.branch} and ${upstream} changed the same lines (in ${files}), which only a person can reconcile; ${upstream} is being merged into ${journal.branch} here, with those conflicts left in the files.`,
    `resolve the conflicts in ${files}, \`git add\` them and \`git commit\` (or \`git merge --abort\` to go back), ${RESUME}.`,
  );
}
