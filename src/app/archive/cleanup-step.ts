import type { WorkTreeStatus } from "../../core/archive/git-status.ts";
import type { RefSnapshot } from "../../core/ports.ts";
import {
  done,
  requireCleanTree,
  RESUME,
  skipped,
  StepFailure,
  type StepContext,
  type StepOutcome,
} from "./step-kit.ts";

/**
 * Deletes the remote branch and leaves this working tree on the default branch, up to date. When the default branch
 * is checked out in another worktree (parallel sessions), git allows it in one place only: this worktree then waits
 * on the merged commit, detached, so the next task starts from it.
 */
export async function cleanup(ctx: StepContext): Promise<StepOutcome> {
  // Not merged yet (archive.merge): the branch is the pull request's, and this working tree stays on it.
  if (ctx.journal.pending)
    return skipped(
      `not merged yet: ${ctx.journal.branch} stays until the merge is done`,
    );
  // The branch's deletion and this working tree's move do not depend on each other, so they run at once; both are
  // waited for before the step ends, and the first failure is the step's.
  const [deleted, moved] = await Promise.allSettled([
    deleteBranch(ctx),
    moveToDefault(ctx),
  ]);
  if (deleted.status === "rejected") throw deleted.reason;
  if (moved.status === "rejected") throw moved.reason;
  const notes = [deleted.value, moved.value].filter((n) => n !== null);
  return notes.length > 0
    ? done(notes.join(", "))
    : skipped(`on ${ctx.journal.defaultBranch}`);
}

async function deleteBranch(ctx: StepContext): Promise<string | null> {
  const { git, github, journal, remote, config } = ctx;
  if (!config.deleteBranch) return null;
  if (github)
    return (await github.deleteBranch(journal.branch)) === "deleted"
      ? `deleted ${journal.branch} on GitHub`
      : `${journal.branch} already gone on GitHub`;
  if (
    remote !== null &&
    (await git.deleteRemoteBranch(remote, journal.branch)) === "deleted"
  )
    return `deleted ${remote}/${journal.branch}`;
  return null;
}

/**
 * This working tree on the default branch, or detached at its newest commit when another worktree has it: what it
 * says, or null when nothing had to move. HEAD and the refs are read once, side by side; with GitHub, which merged on
 * the server, the default branch is fetched first.
 */
async function moveToDefault(ctx: StepContext): Promise<string | null> {
  const { git, github, journal, remote } = ctx;
  const target = journal.defaultBranch;
  const localRef = `refs/heads/${target}`;
  const upstreamRef = `refs/remotes/${remote ?? ""}/${target}`;
  const readRefs = async (fetched: boolean) => ({
    fetched,
    refs: await git.refs([localRef, ...(fetched ? [upstreamRef] : [])]),
  });
  const [status, { fetched, refs }] = await Promise.all([
    git.status(),
    github && remote !== null
      ? git.fetch(remote, target).then(readRefs)
      : readRefs(false),
  ]);
  // Resumed after a pending merge, on another branch: the person moved on to other work there; it stays.
  if (
    ctx.resumedFromPending &&
    status.branch !== null &&
    status.branch !== journal.branch &&
    status.branch !== target
  )
    return `left on ${status.branch}`;
  const elsewhere = refs.elsewhere.get(localRef);
  if (elsewhere !== undefined)
    return waitOnMerged(ctx, elsewhere, status, fetched);
  // A local merge already moved the default branch; GitHub's leaves it behind its remote copy.
  const synced = github ? await syncDefault(ctx, status, refs, fetched) : null;
  if (synced !== null || status.branch === target) return synced;
  // The status read beside the refs is the clean-tree check: this process changed nothing in the tree since.
  await requireCleanTree(ctx, `switching to ${target}`, status);
  await git.switchTo(target);
  return `on ${target}`;
}

/** HEAD detached at the default branch's newest commit (the remote's): what it says, or null with no such commit. */
async function waitOnMerged(
  ctx: StepContext,
  elsewhere: string,
  status: WorkTreeStatus,
  fetchedBefore: boolean,
): Promise<string | null> {
  const { git, journal, remote } = ctx;
  const target = journal.defaultBranch;
  const upstreamRef = `refs/remotes/${remote ?? ""}/${target}`;
  const fetched =
    fetchedBefore || (remote !== null && (await git.fetch(remote, target)));
  const tip = await git.resolve(fetched ? upstreamRef : `refs/heads/${target}`);
  if (tip === null) return null;
  if (status.branch !== null || status.head !== tip) {
    await requireCleanTree(ctx, `leaving ${journal.branch}`, status);
    await git.switchDetached(tip);
  }
  return `detached at ${fetched ? `${remote}/` : ""}${target} (${target} is checked out in ${elsewhere})`;
}

/**
 * Brings the local default branch up to its remote (fast-forward only) and this working tree onto it; never moves the
 * branch backwards or sideways. What it says, or null when it did not switch (HEAD was on it, or the branch needed no
 * update and the caller switches).
 */
async function syncDefault(
  ctx: StepContext,
  status: WorkTreeStatus,
  refs: RefSnapshot,
  fetched: boolean,
): Promise<string | null> {
  const { git, remote, journal } = ctx;
  const target = journal.defaultBranch;
  const localRef = `refs/heads/${target}`;
  const upstreamRef = `refs/remotes/${remote ?? ""}/${target}`;
  const local = refs.sha.get(localRef);
  const upstream = refs.sha.get(upstreamRef);
  if (!fetched || upstream === undefined) {
    if (local === undefined)
      throw new StepFailure(
        `the default branch \`${target}\` does not exist here.`,
        `create it, ${RESUME}.`,
      );
    return null;
  }
  if (local === upstream) return null;
  // Asked in the order of the usual answer (the remote is ahead after GitHub merged), so it takes one process.
  const behind = local === undefined || (await git.isAncestor(local, upstream));
  if (!behind && (await git.isAncestor(upstream, local))) return null;
  if (!behind)
    throw new StepFailure(
      `${target} and ${remote}/${target} have diverged, and playbook never discards commits.`,
      `reconcile them (\`git switch ${target} && git pull --rebase\`), ${RESUME}.`,
    );
  await requireCleanTree(ctx, `updating ${target}`, status);
  // Off the branch, it is moved (compare and swap) and then checked out once, at its new commit; a branch that moved
  // meanwhile, or one checked out here, is fast-forwarded by git instead, which refuses anything else.
  const moved =
    status.branch !== target &&
    local !== undefined &&
    (await git.updateRef(localRef, upstream, local));
  if (status.branch === target) {
    await git.mergeFfOnly(upstreamRef);
    return null;
  }
  await git.switchTo(target);
  if (!moved) await git.mergeFfOnly(upstreamRef);
  return `on ${target}`;
}
