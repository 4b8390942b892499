import { PushRejected } from "../../adapters/git-port.ts";
import {
  mergeDefaultIntoBranch,
  mergeKeepingState,
} from "./merge-keeping-state.ts";
import {
  done,
  MERGE_ATTEMPTS,
  messageOf,
  requireCleanTree,
  RESUME,
  StepFailure,
  type StepContext,
  type StepOutcome,
} from "./step-kit.ts";

/**
 * The local provider's merge: a `--no-ff` merge of the playbook's branch onto the default branch as the remote has
 * it, pushed there. The merge is made on a detached HEAD, so it works in a worktree while the default branch is
 * checked out in another one, and the local default branch moves only after the push, forward. When another
 * archive (a parallel session) pushed first, the push is refused; the merge is made again on top of it, up to
 * `MERGE_ATTEMPTS` times. Nothing is ever forced: a merge commit the remote refused was on no branch.
 */
export async function mergeLocally(ctx: StepContext): Promise<StepOutcome> {
  const { git, journal, remote } = ctx;
  const target = journal.defaultBranch;
  const targetRef = `refs/heads/${target}`;
  for (let attempt = 1; ; attempt++) {
    const { head, base, local, elsewhere } = await readBase(ctx);
    if (head === base || (await git.isAncestor(head, base)))
      return done(
        `${journal.branch} already in ${target}${await forwarded(ctx, elsewhere, base, { local, base })}`,
      );
    if (remote === null && elsewhere !== null)
      throw new StepFailure(
        `${target} is checked out in ${elsewhere}, and with no remote to push the merge to, merging would move it under that working tree.`,
        `merge it there (\`git -C ${elsewhere} merge --no-ff ${journal.branch}\`), ${RESUME}.`,
      );
    await requireCleanTree(ctx, `merging into ${target}`);
    // Null when the default branch had to be merged into the playbook's branch first: the next round merges it.
    const made = await mergeOnto(ctx, base);
    const landed =
      made !== null &&
      (remote === null
        ? await git.updateRef(targetRef, made.sha, local ?? "")
        : await pushMerge(ctx, made.sha, attempt));
    if (made !== null && landed) {
      const detail = [
        `${journal.branch} merged into ${target} (--no-ff)`,
        ...(made.stateResolved
          ? [`state.md's bookkeeping merged with ${target}'s`]
          : []),
        ...(attempt > 1
          ? [`merged again on top of ${target}, which moved ${attempt - 1}x`]
          : []),
        ...(remote === null ? [] : [`pushed to ${remote}`]),
      ].join(", ");
      return done(
        `${detail}${await forwarded(ctx, elsewhere, made.sha, { local, base })}`,
      );
    }
    if (attempt >= MERGE_ATTEMPTS)
      throw new StepFailure(
        `${target} moved ${attempt} times while ${journal.branch} was being merged into it (other archives were merging too).`,
        `wait for them to finish, ${RESUME}.`,
      );
  }
}

/** `forwardLocalDefault` when the merge went to a remote and no other worktree has the default branch. */
async function forwarded(
  ctx: StepContext,
  elsewhere: string | null,
  merged: string,
  read: { local: string | undefined; base: string },
): Promise<string> {
  return ctx.remote !== null && elsewhere === null
    ? forwardLocalDefault(ctx, merged, read)
    : "";
}

/**
 * The branch's commit, the commit to merge onto (the remote's default branch when there is one, else the local), the
 * local default branch, and the other worktree that has it checked out: one fetch, one `for-each-ref`.
 */
export async function readBase(ctx: StepContext): Promise<{
  head: string;
  base: string;
  local: string | undefined;
  elsewhere: string | null;
}> {
  const { git, journal, remote } = ctx;
  const target = journal.defaultBranch;
  const branchRef = `refs/heads/${journal.branch}`;
  const targetRef = `refs/heads/${target}`;
  const upstreamRef = `refs/remotes/${remote ?? ""}/${target}`;
  // Never merged onto a stale copy: what the remote has now, so a merge pushed there never lands over another's.
  const fetched =
    remote !== null &&
    (await ctx.meter.check("fetch", () => git.fetch(remote, target)));
  const refs = await git.refs([
    targetRef,
    branchRef,
    ...(fetched ? [upstreamRef] : []),
  ]);
  const head = refs.sha.get(branchRef);
  const local = refs.sha.get(targetRef);
  const base = fetched ? refs.sha.get(upstreamRef) : local;
  if (head === undefined)
    throw new StepFailure(
      `the branch \`${journal.branch}\` does not exist here.`,
      `restore it, ${RESUME}.`,
    );
  if (base === undefined)
    throw new StepFailure(
      `the default branch \`${target}\` does not exist here.`,
      `create it, ${RESUME}.`,
    );
  return {
    head,
    base,
    local,
    elsewhere: refs.elsewhere.get(targetRef) ?? null,
  };
}

/**
 * The merge commit of the playbook's branch onto `base`, made on a detached HEAD; null when the branch conflicted
 * with it only in state.md's bookkeeping from a merge of the default branch into it first, now done (merge again).
 * Other conflicts stop the archive with that merge left in progress on the branch for a person.
 */
async function mergeOnto(
  ctx: StepContext,
  base: string,
): Promise<{ sha: string; stateResolved: boolean } | null> {
  const { git, journal, remote } = ctx;
  const target = journal.defaultBranch;
  await git.switchDetached(base);
  let result: Awaited<ReturnType<typeof mergeKeepingState>>;
  try {
    result = await mergeKeepingState(
      ctx,
      journal.branch,
      `Merge branch '${journal.branch}': ${journal.title}`,
      "theirs",
      "abort",
    );
  } catch (error) {
    await git.switchTo(journal.branch);
    throw error;
  }
  if (result.merged) return result;
  await git.switchTo(journal.branch);
  await mergeDefaultIntoBranch(
    ctx,
    remote === null
      ? `refs/heads/${target}`
      : `refs/remotes/${remote}/${target}`,
    remote === null ? target : `${remote}/${target}`,
  );
  return null;
}

/** Whether the remote took the merge; false when its default branch moved since the fetch (another archive). */
async function pushMerge(
  ctx: StepContext,
  sha: string,
  attempt: number,
): Promise<boolean> {
  const { git, journal, remote } = ctx;
  if (remote === null) return false;
  try {
    await git.pushCommit(remote, sha, journal.defaultBranch);
    return true;
  } catch (error) {
    if (error instanceof PushRejected) {
      await ctx.sleep(Math.min(100 * attempt, 1000));
      return false;
    }
    throw new StepFailure(
      `pushing the merge to ${remote}/${journal.defaultBranch} failed: ${messageOf(error)}`,
      `fix the remote or your access, ${RESUME}.`,
    );
  }
}

/**
 * The local default branch, brought forward to the merge when nothing else has it checked out (its owner pulls
 * otherwise). One with commits the remote lacks is left as it is, and the detail says so. When the local branch, as
 * read before the merge, was the commit merged onto (`base`, an ancestor of the merge), it moves by compare and swap
 * without being read again; it is read again only when it was elsewhere or moved meanwhile.
 */
async function forwardLocalDefault(
  ctx: StepContext,
  merged: string,
  read: { local: string | undefined; base: string },
): Promise<string> {
  const { git, journal, remote } = ctx;
  const targetRef = `refs/heads/${journal.defaultBranch}`;
  if (read.local === merged) return "";
  if (
    read.local === read.base &&
    (await git.updateRef(targetRef, merged, read.local))
  )
    return "";
  const local = (await git.refs([targetRef])).sha.get(targetRef);
  if (local === merged) return "";
  if (local === undefined || (await git.isAncestor(local, merged))) {
    if (await git.updateRef(targetRef, merged, local ?? "")) return "";
  }
  return `; the local ${journal.defaultBranch} has commits ${remote ?? "the remote"}/${journal.defaultBranch} lacks and was left as it is`;
}
