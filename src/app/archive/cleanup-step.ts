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
  const { git, github, journal, remote, config } = ctx;
  const notes: string[] = [];
  if (config.deleteBranch) {
    if (github)
      notes.push(
        (await github.deleteBranch(journal.branch)) === "deleted"
          ? `deleted ${journal.branch} on GitHub`
          : `${journal.branch} already gone on GitHub`,
      );
    else if (
      remote !== null &&
      (await git.deleteRemoteBranch(remote, journal.branch)) === "deleted"
    )
      notes.push(`deleted ${remote}/${journal.branch}`);
  }
  const target = journal.defaultBranch;
  const elsewhere = await git.worktreeOf(target);
  if (elsewhere !== null) {
    const note = await waitOnMerged(ctx, elsewhere);
    if (note !== null) notes.push(note);
  } else {
    // GitHub merged on the server, so the local default branch is behind; a local merge already moved it.
    const onDefault = github
      ? (await syncDefault(ctx)).head === `refs/heads/${target}`
      : (await git.currentBranch()) === target;
    if (!onDefault) {
      await requireCleanTree(ctx, `switching to ${target}`);
      await git.switchTo(target);
      notes.push(`on ${target}`);
    }
  }
  return notes.length > 0 ? done(notes.join(", ")) : skipped(`on ${target}`);
}

/** HEAD detached at the default branch's newest commit (the remote's): what it says, or null with no such commit. */
async function waitOnMerged(
  ctx: StepContext,
  elsewhere: string,
): Promise<string | null> {
  const { git, journal, remote } = ctx;
  const target = journal.defaultBranch;
  const upstreamRef = `refs/remotes/${remote ?? ""}/${target}`;
  const fetched = remote !== null && (await git.fetch(remote, target));
  const tipRef = fetched ? upstreamRef : `refs/heads/${target}`;
  const tip = await git.resolve(tipRef);
  if (tip === null) return null;
  if (
    (await git.currentBranch()) !== null ||
    (await git.resolve("HEAD")) !== tip
  ) {
    await requireCleanTree(ctx, `leaving ${journal.branch}`);
    await git.switchDetached(tip);
  }
  return `detached at ${fetched ? `${remote}/` : ""}${target} (${target} is checked out in ${elsewhere})`;
}

/**
 * Brings the local default branch up to its remote (fast-forward only); never moves it backwards or sideways.
 * Returns the default branch and its remote copy as they stand afterwards (one `for-each-ref`).
 */
async function syncDefault(ctx: StepContext): Promise<RefSnapshot> {
  const { git, remote, journal } = ctx;
  const target = journal.defaultBranch;
  const localRef = `refs/heads/${target}`;
  const fetched = remote !== null && (await git.fetch(remote, target));
  const upstreamRef = `refs/remotes/${remote ?? ""}/${target}`;
  const refs = await git.refs([localRef, ...(fetched ? [upstreamRef] : [])]);
  const local = refs.sha.get(localRef);
  const upstream = refs.sha.get(upstreamRef);
  if (!fetched || upstream === undefined) {
    if (local === undefined)
      throw new StepFailure(
        `the default branch \`${target}\` does not exist here.`,
        `create it, ${RESUME}.`,
      );
    return refs;
  }
  if (local === upstream) return refs;
  if (local !== undefined && (await git.isAncestor(upstream, local)))
    return refs;
  if (local !== undefined && !(await git.isAncestor(local, upstream)))
    throw new StepFailure(
      `${target} and ${remote}/${target} have diverged, and playbook never discards commits.`,
      `reconcile them (\`git switch ${target} && git pull --rebase\`), ${RESUME}.`,
    );
  await requireCleanTree(ctx, `updating ${target}`);
  if (refs.head !== localRef) await git.switchTo(target);
  await git.mergeFfOnly(upstreamRef);
  const sha = new Map(refs.sha);
  sha.set(localRef, upstream);
  return { sha, symref: refs.symref, head: localRef };
}
