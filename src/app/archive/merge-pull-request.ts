import { GitHubError } from "../../adapters/github-error.ts";
import type { GitHubPort, PullRequest } from "../../core/ports.ts";
import { mergeDefaultIntoBranch } from "./merge-keeping-state.ts";
import {
  done,
  MERGE_ATTEMPTS,
  pushRef,
  requireCleanTree,
  RESUME,
  skipped,
  StepFailure,
  type StepContext,
  type StepOutcome,
} from "./step-kit.ts";

/**
 * The GitHub provider's merge: waits for the checks on the pull request's head, then merges it through the API with
 * the expected head SHA. Two refusals come from other archives merging into the same default branch meanwhile
 * (parallel sessions): "Base branch was modified", for which the merge is asked again, and "not mergeable" when
 * their state.md bookkeeping now conflicts with this branch's; then the default branch is merged into the
 * playbook's branch here (state.md resolved, anything else left to a person), pushed, and the new head is merged
 * after its checks.
 */
export async function mergePullRequest(
  ctx: StepContext,
  github: GitHubPort,
  /** Merge only this head (the one a person approved): no fix is pushed and nothing is merged into it first. */
  onlyHead?: string,
): Promise<StepOutcome> {
  const { journal } = ctx;
  if (!journal.pr)
    throw new StepFailure(
      "there is no pull request to merge.",
      `run \`playbook archive --resume\` again to open one.`,
    );
  let caughtUp = "";
  for (let attempt = 1; ; attempt++) {
    const pr = await readyToMerge(ctx, github, journal.pr.number, onlyHead);
    if (pr === null) return skipped(`#${journal.pr.number} already merged`);
    try {
      const sha = await github.merge(pr.number, {
        sha: pr.headSha,
        method: ctx.config.mergeMethod,
        title: `${journal.title} (#${pr.number})`,
      });
      return done(
        `#${pr.number} merged with ${ctx.config.mergeMethod} (${sha.slice(0, 7)})${caughtUp}`,
      );
    } catch (error) {
      if (!(error instanceof GitHubError)) throw error;
      const again = attempt < MERGE_ATTEMPTS && error.status === 405;
      if (again && /Base branch was modified/i.test(error.message)) {
        await ctx.sleep(Math.min(250 * attempt, 2000));
        continue;
      }
      if (
        again &&
        onlyHead === undefined &&
        /not mergeable/i.test(error.message)
      ) {
        const merged = await catchUp(ctx);
        if (merged !== null) {
          caughtUp = `, after merging ${merged} into ${journal.branch}`;
          continue;
        }
      }
      throw refusal(error, pr, pullCommand(ctx));
    }
  }
}

/** `git pull <remote> <branch>` on the branch, spelled out: the archive sets no upstream. */
function pullCommand(ctx: StepContext): string {
  const { branch } = ctx.journal;
  return `\`git pull ${ctx.remote ?? "origin"} ${branch}\` on \`${branch}\``;
}

function refusal(error: GitHubError, pr: PullRequest, pull: string): Error {
  if (error.status === 409)
    return new StepFailure(
      `the branch changed while merging #${pr.number}.`,
      `${pull}, ${RESUME}.`,
    );
  if (error.status === 405)
    return new StepFailure(
      `GitHub refused to merge #${pr.number}: ${error.message}.`,
      `see ${pr.url} (conflicts, branch protection or reviews), ${RESUME}.`,
    );
  return error;
}

/**
 * The pull request once its head is this clone's branch and its checks have passed; null when it is already
 * merged. A fix committed here after the archive stopped is pushed first (unless `onlyHead` is set: then a head
 * other than it stops the archive); a push by someone else stops the archive.
 */
async function readyToMerge(
  ctx: StepContext,
  github: GitHubPort,
  number: number,
  onlyHead?: string,
): Promise<PullRequest | null> {
  const synced = await syncPullRequest(
    ctx,
    github,
    number,
    onlyHead === undefined,
  );
  if (synced === null) return null;
  if (onlyHead !== undefined && synced.pr.headSha !== onlyHead)
    throw new StepFailure(
      `#${number}'s head moved to ${synced.pr.headSha.slice(0, 7)} after the approval of ${onlyHead.slice(0, 7)}.`,
      `ask for a review of the new head (${synced.pr.url}), ${RESUME}.`,
    );
  return waitForChecks(ctx, github, synced.pr, synced.checks);
}

/** A pull request whose head is this clone's branch, and the checks of that head when they were read meanwhile. */
export interface SyncedPullRequest {
  pr: PullRequest;
  checks: { pending: string[]; failed: string[] } | null;
}

/**
 * The open pull request, its head made this clone's branch; null when it is already merged. A fix committed here
 * after the archive stopped is pushed when `pushFix` is set; a push by someone else stops the archive, and so does
 * a pull request closed without being merged.
 */
export async function syncPullRequest(
  ctx: StepContext,
  github: GitHubPort,
  number: number,
  pushFix = true,
): Promise<SyncedPullRequest | null> {
  const { journal, git } = ctx;
  // The pull request is read while git names the local head, and the checks are asked for that head meanwhile: they
  // are the same commit unless someone pushed (refused below) or a fix was committed here after the archive stopped
  // (pushed below).
  const reading = ctx.meter.check("pull-request", () => {
    const pull = github.getPullRequest(number);
    const head = git.resolve(`refs/heads/${journal.branch}`);
    const checks = head.then((sha) =>
      sha === null ? null : github.checks(sha).catch(() => null),
    );
    return Promise.all([head, pull, checks]);
  });
  const [local, first, firstChecks] = await reading;
  let pr = first;
  if (pr.merged) return null;
  if (pr.state === "closed")
    throw new StepFailure(
      `pull request #${pr.number} was closed without being merged (${pr.url}).`,
      `reopen it on GitHub, ${RESUME}.`,
    );
  if (pushFix && local !== null && pr.headSha !== local) {
    const pushed = await pushRef(ctx, journal.branch);
    if (pushed.status === "done") pr = await github.getPullRequest(pr.number);
  }
  if (local !== null && pr.headSha !== local)
    throw new StepFailure(
      `the pull request's head (${pr.headSha.slice(0, 7)}) differs from the local branch (${local.slice(0, 7)}): someone else pushed to it.`,
      `${pullCommand(ctx)} and check the changes, ${RESUME}.`,
    );
  return { pr, checks: pr.headSha === local ? firstChecks : null };
}

/** Stops at a failed check: GitHub would never merge it, and the fix is the agent's to make. */
export function refuseFailedChecks(
  ctx: StepContext,
  pr: PullRequest,
  failed: readonly string[],
): void {
  if (failed.length > 0)
    throw new StepFailure(
      `checks failed on #${pr.number}: ${failed.join(", ")}.`,
      `fix them on \`${ctx.journal.branch}\` and commit the fix (the archive pushes it), ${RESUME}.`,
    );
}

/** The pull request once its head's checks passed, waiting up to `checkWaitSeconds`; a failed check stops it. */
async function waitForChecks(
  ctx: StepContext,
  github: GitHubPort,
  first: PullRequest,
  firstChecks: SyncedPullRequest["checks"],
): Promise<PullRequest> {
  let pr = first;
  const deadline = ctx.now().getTime() + ctx.checkWaitSeconds * 1000;
  let known = firstChecks;
  for (;;) {
    const { pending, failed } = known ?? (await github.checks(pr.headSha));
    known = null;
    refuseFailedChecks(ctx, pr, failed);
    if (pending.length === 0) return pr;
    if (ctx.now().getTime() >= deadline)
      throw new StepFailure(
        `checks are still running on #${pr.number} after ${ctx.checkWaitSeconds} s: ${pending.join(", ")}.`,
        `wait for them (${pr.url}), ${RESUME}.`,
      );
    await ctx.sleep(ctx.pollIntervalMs);
    pr = await github.getPullRequest(pr.number);
  }
}

/**
 * Merges the remote's default branch into the playbook's branch here, and pushes it: what "Update branch" does on
 * GitHub, with state.md's bookkeeping resolved (other conflicts stop the archive, left for a person). Returns what
 * was merged, or null when the branch already has it (then the refusal is not about the default branch moving).
 */
async function catchUp(ctx: StepContext): Promise<string | null> {
  const { git, journal, remote } = ctx;
  const target = journal.defaultBranch;
  if (remote === null || !(await git.fetch(remote, target))) return null;
  const upstream = `${remote}/${target}`;
  const upstreamRef = `refs/remotes/${upstream}`;
  const tip = await git.resolve(upstreamRef);
  if (
    tip === null ||
    (await git.isAncestor(tip, `refs/heads/${journal.branch}`))
  )
    return null;
  const status = await git.status();
  if (status.branch !== journal.branch)
    throw new StepFailure(
      `${target} moved on GitHub and conflicts with ${journal.branch}, which is not checked out here.`,
      `\`git switch ${journal.branch} && git merge ${upstream}\`, resolve the conflicts and commit, ${RESUME}.`,
    );
  await requireCleanTree(
    ctx,
    `merging ${upstream} into ${journal.branch}`,
    status,
  );
  await mergeDefaultIntoBranch(ctx, upstreamRef, upstream);
  await pushRef(ctx, journal.branch);
  return upstream;
}
