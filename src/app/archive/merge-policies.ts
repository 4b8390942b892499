import {
  describePending,
  type PendingKind,
} from "../../core/archive/merge-policy.ts";
import {
  evaluateApproval,
  type Approval,
} from "../../core/archive/review-approval.ts";
import type { GitHubPort, PullRequest } from "../../core/ports.ts";
import { requiredCheckNames } from "../../core/scaffold/ci-setup.ts";
import { CI_CHECK_NAME } from "../../core/scaffold/ci-workflow.ts";
import { GitHubError } from "../../adapters/github-error.ts";
import { mergeLocally, readBase } from "./merge-local.ts";
import {
  mergePullRequest,
  refuseFailedChecks,
  syncPullRequest,
} from "./merge-pull-request.ts";
import {
  done,
  RESUME,
  skipped,
  StepFailure,
  type StepContext,
  type StepOutcome,
} from "./step-kit.ts";

/**
 * The merge step under `archive.merge` (docs/archive.md#merge-policies): `auto` merges as soon as the checks pass;
 * `auto-when-green` hands the merge to GitHub's auto-merge or merge queue; `on-approval` waits for a person's
 * approving review, then merges; `open` leaves the pull request to a person. A merge left to GitHub or a person is
 * recorded in the journal as pending, so the lock and `playbook status` say what comes next, and `--resume` finishes
 * once it happened.
 */
export function mergeByPolicy(ctx: StepContext): Promise<StepOutcome> {
  ctx.journal.pending = null;
  const { github } = ctx;
  if (!github) return mergeLocalByPolicy(ctx);
  switch (ctx.config.merge) {
    case "auto":
      return mergePullRequest(ctx, github);
    case "auto-when-green":
      return mergeWhenGreen(ctx, github);
    case "on-approval":
      return mergeOnApproval(ctx, github);
    case "open":
      return leaveOpen(ctx, github);
  }
}

/** Records what the merge waits for; the lock step and the outcome say it. */
function pend(ctx: StepContext, kind: PendingKind): StepOutcome {
  const { journal, remote } = ctx;
  journal.pending = describePending(kind, {
    pr: journal.pr,
    branch: journal.branch,
    defaultBranch: journal.defaultBranch,
    remote,
  });
  return done(`pending: ${journal.pending.what}`);
}

function pullRequestOf(ctx: StepContext): { number: number; url: string } {
  const { pr } = ctx.journal;
  if (!pr)
    throw new StepFailure(
      "there is no pull request to merge.",
      `run \`playbook archive --resume\` again to open one.`,
    );
  return pr;
}

/**
 * The local provider has no pull requests, reviews or GitHub checks. `auto`, and `auto-when-green` while the final
 * proof (`archive.requireRerun`) gates the push, merge as always: that proof is the green check. `on-approval`,
 * `open`, and `auto-when-green` without the final proof leave the pushed branch to a person, whose merge is the
 * approval; `--resume` finds it merged and cleans up.
 */
async function mergeLocalByPolicy(ctx: StepContext): Promise<StepOutcome> {
  const { merge, requireRerun } = ctx.config;
  if (merge === "auto" || (merge === "auto-when-green" && requireRerun))
    return mergeLocally(ctx);
  const { head, base } = await readBase(ctx);
  if (head === base || (await ctx.git.isAncestor(head, base)))
    return skipped(
      `${ctx.journal.branch} already in ${ctx.journal.defaultBranch}`,
    );
  return pend(ctx, "person");
}

/** `open`: the pull request stays open for a person; once they merged it, the resume finds it merged. */
async function leaveOpen(
  ctx: StepContext,
  github: GitHubPort,
): Promise<StepOutcome> {
  const { number } = pullRequestOf(ctx);
  const synced = await syncPullRequest(ctx, github, number);
  if (synced === null) return skipped(`#${number} already merged`);
  return pend(ctx, "person");
}

/**
 * `on-approval`: waits up to `checkWaitSeconds` for a person's approval of the pull request's head, then merges it
 * as `auto` does, that head only. A standing "changes requested" stops the archive (the agent addresses it); no
 * approval in time leaves the merge pending.
 */
async function mergeOnApproval(
  ctx: StepContext,
  github: GitHubPort,
): Promise<StepOutcome> {
  const { number } = pullRequestOf(ctx);
  const synced = await syncPullRequest(ctx, github, number);
  if (synced === null) return skipped(`#${number} already merged`);
  const { pr } = synced;
  const approval = await waitForApproval(ctx, github, pr);
  if (approval.state === "changes-requested")
    throw new StepFailure(
      `${approval.by.join(", ")} requested changes on #${pr.number} (${pr.url}).`,
      `address the review, commit the fix on \`${ctx.journal.branch}\` (the archive pushes it; the new head needs a new approval), ${RESUME}.`,
    );
  if (approval.state === "waiting") {
    const outcome = pend(ctx, "approval");
    return approval.stale.length > 0
      ? done(
          `${outcome.detail} (${approval.stale.join(", ")} approved an earlier head)`,
        )
      : outcome;
  }
  const merged = await mergePullRequest(ctx, github, pr.headSha);
  return done(`approved by ${approval.by.join(", ")}; ${merged.detail}`);
}

async function waitForApproval(
  ctx: StepContext,
  github: GitHubPort,
  pr: PullRequest,
): Promise<Approval> {
  const deadline = ctx.now().getTime() + ctx.checkWaitSeconds * 1000;
  const self = (await github.mergeState(pr.number)).viewer;
  for (;;) {
    const approval = evaluateApproval(await github.reviews(pr.number), {
      self,
      headSha: pr.headSha,
    });
    if (approval.state !== "waiting" || ctx.now().getTime() >= deadline)
      return approval;
    await ctx.sleep(ctx.pollIntervalMs);
  }
}

/**
 * `auto-when-green`: GitHub merges, with its own rules: the pull request joins the base branch's merge queue when a
 * ruleset has one, else GitHub's auto-merge is turned on with `archive.mergeMethod`, both for the head pushed here.
 * It refuses a base branch whose rulesets do not require the re-proof (`playbook-rerun`, docs/ci.md): GitHub
 * would merge the work unproven. It then watches for the merge up to `checkWaitSeconds`.
 */
async function mergeWhenGreen(
  ctx: StepContext,
  github: GitHubPort,
): Promise<StepOutcome> {
  const { number } = pullRequestOf(ctx);
  const synced = await syncPullRequest(ctx, github, number);
  if (synced === null) return skipped(`#${number} already merged`);
  const { pr } = synced;
  const { defaultBranch } = ctx.journal;
  const [checks, rules, state] = await Promise.all([
    synced.checks ?? github.checks(pr.headSha),
    github.branchRules(defaultBranch),
    github.mergeState(pr.number),
  ]);
  refuseFailedChecks(ctx, pr, checks.failed);
  if (!requiredCheckNames(rules).includes(CI_CHECK_NAME))
    throw new StepFailure(
      `archive.merge is auto-when-green, and no ruleset of ${defaultBranch} requires the check ${CI_CHECK_NAME}: GitHub would merge #${pr.number} without the re-proof.`,
      `require it (docs/ci.md, "Setting it up on GitHub"), or set archive.merge to auto or on-approval in .claude/playbook.json, ${RESUME}.`,
    );
  const queue = rules.some((rule) => rule.type === "merge_queue");
  const kind: PendingKind = queue ? "merge-queue" : "auto-merge";
  if (state.autoMerge === false && state.queued === null) {
    const handed = await handToGitHub(ctx, github, pr, state.id, queue);
    if (handed !== null) return handed;
  }
  if (!(await waitForGitHubMerge(ctx, github, pr))) return pend(ctx, kind);
  return done(
    `#${pr.number} merged by GitHub's ${queue ? "merge queue" : "auto-merge"}`,
  );
}

/**
 * Queues the pull request or turns auto-merge on. GitHub refuses auto-merge for a pull request that can be merged
 * right now ("clean status": its required checks passed); the archive then merges it as `auto` would, the way
 * `gh pr merge --auto` does. That outcome is returned; null when GitHub took the merge.
 */
async function handToGitHub(
  ctx: StepContext,
  github: GitHubPort,
  pr: PullRequest,
  id: string,
  queue: boolean,
): Promise<StepOutcome | null> {
  try {
    if (queue) await github.enqueue({ pullRequestId: id, headSha: pr.headSha });
    else
      await github.enableAutoMerge({
        pullRequestId: id,
        headSha: pr.headSha,
        method: ctx.config.mergeMethod,
      });
    return null;
  } catch (error) {
    if (
      !queue &&
      error instanceof GitHubError &&
      /clean status/i.test(error.message)
    ) {
      const merged = await mergePullRequest(ctx, github, pr.headSha);
      return done(
        `GitHub says #${pr.number} can be merged now (its required checks passed), so auto-merge cannot wait for them: ${merged.detail}`,
      );
    }
    throw error;
  }
}

/** Whether GitHub merged the pull request within `checkWaitSeconds`. */
async function waitForGitHubMerge(
  ctx: StepContext,
  github: GitHubPort,
  first: PullRequest,
): Promise<boolean> {
  const deadline = ctx.now().getTime() + ctx.checkWaitSeconds * 1000;
  for (;;) {
    const pr = await github.getPullRequest(first.number);
    if (pr.merged) return true;
    if (pr.state === "closed")
      throw new StepFailure(
        `pull request #${pr.number} was closed without being merged (${pr.url}).`,
        `reopen it on GitHub, ${RESUME}.`,
      );
    if (ctx.now().getTime() >= deadline) return false;
    await ctx.sleep(ctx.pollIntervalMs);
  }
}
