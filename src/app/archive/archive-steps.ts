import { readDocumentText } from "../../adapters/read-document.ts";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  readPostLoopLock,
  writePostLoopLock,
} from "../../adapters/runtime-files.ts";
import { committableChanges } from "../../core/archive/git-status.ts";
import type {
  ArchiveJournal,
  ArchiveStepId,
} from "../../core/archive/journal.ts";
import type { MergePolicy } from "../../core/archive/merge-policy.ts";
import { renderPullRequest } from "../../core/archive/pull-request-text.ts";
import { resetStateText } from "../../core/archive/state-reset.ts";
import { describeSecretFinding } from "../../core/archive/secrets.ts";
import { scanForSecrets } from "../../adapters/secret-scan.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";
import { writeStateEdit } from "../workspace/write-state-field.ts";
import { cleanup } from "./cleanup-step.ts";
import { mergeByPolicy } from "./merge-policies.ts";
import { commitWork, nameOf } from "./commit-step.ts";
import {
  done,
  pushRef,
  requireNoConflicts,
  RESUME,
  skipped,
  StepFailure,
  type StepContext,
  type StepOutcome,
} from "./step-kit.ts";

export { StepFailure, type StepContext } from "./step-kit.ts";

/**
 * One step of the archive: what it will do, in words (`playbook archive --dry-run` prints exactly these), and doing
 * it. Each `run` checks the real state first, so running a step twice is always safe.
 */
export interface ArchiveStep {
  describe: (
    journal: ArchiveJournal,
    remote: string | null,
    policy: MergePolicy,
  ) => string;
  run: (ctx: StepContext) => Promise<StepOutcome>;
}

/** The merge step on GitHub under each `archive.merge`, for `--dry-run`. */
const GITHUB_MERGE: Record<MergePolicy, (base: string) => string> = {
  auto: (base) => `wait for checks, then merge the pull request into ${base}`,
  "auto-when-green": (base) =>
    `hand the pull request to GitHub: ${base}'s merge queue if it has one, else auto-merge (playbook-rerun must be required)`,
  "on-approval": (base) =>
    `wait for a person's approving review and the checks, then merge the pull request into ${base}`,
  open: () => "leave the pull request open for a person to merge",
};

const pushTo = (remote: string | null) =>
  remote === null ? "no remote: nothing is pushed" : `to ${remote}`;

/** The steps of docs/archive.md, by id (`ARCHIVE_STEPS` gives their order). */
export const ARCHIVE_STEP_DEFS: Readonly<Record<ArchiveStepId, ArchiveStep>> = {
  commit: {
    describe: (journal) =>
      `commit tracked changes, staged files and the files the agent wrote with its file tools on ${journal.branch}; leave other untracked files alone (secrets refused)`,
    run: commitWork,
  },
  push: {
    describe: (journal, remote) => `push ${journal.branch} ${pushTo(remote)}`,
    run: pushBranch,
  },
  "open-pr": {
    describe: (journal) =>
      journal.provider === "github"
        ? `open the pull request "${journal.title}" into ${journal.defaultBranch} with the proof table as its body (or find it and update its body)`
        : "local provider: no pull request",
    run: openPullRequest,
  },
  "archive-playbook": {
    describe: (journal) => `git mv ${journal.playbook} ${journal.archivePath}`,
    run: movePlaybook,
  },
  "reset-state": {
    describe: (journal) =>
      `state.md: active and branch null, last_archived ${journal.archivePath}, goal reset; commit "chore: archive", push`,
    run: resetState,
  },
  merge: {
    describe: (journal, remote, policy) =>
      journal.provider === "github"
        ? GITHUB_MERGE[policy](journal.defaultBranch)
        : policy === "auto" || policy === "auto-when-green"
          ? `merge ${journal.branch} into ${journal.defaultBranch} with --no-ff, push ${pushTo(remote)}${policy === "auto" ? "" : " (when the final proof gates the push; else left to a person)"}`
          : `leave ${journal.branch} for a person to merge into ${journal.defaultBranch} (archive.merge ${policy})`,
    run: mergeBranch,
  },
  cleanup: {
    describe: (journal) =>
      `delete the remote branch, switch to ${journal.defaultBranch} and fast-forward it`,
    run: cleanup,
  },
  lock: {
    describe: () => "set the post-loop lock until the next task is picked",
    run: setLock,
  },
};

/** Steps whose failure leaves the work merged: the archive still sets the lock, with status `partial`. */
export const BEST_EFFORT_STEPS: ReadonlySet<ArchiveStepId> = new Set([
  "cleanup",
]);

async function pushBranch(ctx: StepContext): Promise<StepOutcome> {
  await refusePublishedSecrets(ctx);
  // `archive.requireRerun`: nothing leaves this clone (and nothing is merged) unless the validations, run again in
  // the sandbox on the committed work, agree with the evidence.
  if (!ctx.config.requireRerun) return pushRef(ctx, ctx.journal.branch);
  // Resumed after the archive-playbook step (a merge that stopped), the playbook is at its archive path; its records
  // are still filed under the old one.
  const { playbook, archivePath } = ctx.journal;
  const rerun = await ctx.meter.check("final-gate", () =>
    ctx.rerun(existsSync(join(ctx.root, playbook)) ? playbook : archivePath, {
      onRow: ctx.onGateRow,
      budgetSeconds: ctx.gateBudgetSeconds,
      signal: ctx.signal,
    }),
  );
  if (!rerun.ok && rerun.interrupted === true)
    throw new StepFailure(
      "the final proof was interrupted (Ctrl-C or SIGTERM) and its validations stopped; nothing was pushed.",
      "run `playbook archive --resume`: it proves the commit again and pushes it.",
    );
  if (!rerun.ok && rerun.outOfTime)
    throw new StepFailure(
      `the final proof did not finish in the ${ctx.gateBudgetSeconds ?? 0} s the hook may take (${rerun.detail}); nothing was pushed.`,
      "run `playbook archive --resume`: run in the shell, it is not bound by the hook's time and shows each validation as it finishes.",
    );
  if (!rerun.ok)
    throw new StepFailure(
      `the final proof failed (each validation runs again in a clean checkout of the commit, without ignored or uncommitted files): ${rerun.detail}; nothing was pushed.`,
      `fix what it names (a file the code needs may be ignored by git or not committed), commit the fix, then ${RESUME.replace(/^then /, "")}.`,
    );
  await commitRefreshedProof(ctx);
  // The step's line (in the journal, the hook's context and the output) says the commit was proven.
  const pushed = await pushRef(ctx, ctx.journal.branch);
  return {
    ...pushed,
    detail: `final gate: ${rerun.passed} validation${rerun.passed === 1 ? "" : "s"} passed on the commit; ${pushed.detail}`,
  };
}

/**
 * The final proof wrote fresh evidence of the commit. Where the project keeps its records in git, they are committed
 * with the work, so the branch carries the proof of exactly what it holds.
 */
async function commitRefreshedProof(ctx: StepContext): Promise<void> {
  const status = await ctx.git.status();
  const proof = status.entries
    .map((e) => e.path)
    .filter((path) => path.startsWith(".claude/playbook/records/"));
  if (proof.length === 0) return;
  await ctx.git.addAll(proof);
  await ctx.git.commit(`chore(${nameOf(ctx.journal)}): record the final proof`);
}

/**
 * The commit step scans what it commits; a push also publishes the commits made before the archive. The lines each
 * of the branch's commits adds since the default branch as this clone last saw it on the remote (else as it is here)
 * go through the same rules, so a secret added and removed again is found as well, at its line in the commit that
 * added it.
 */
async function refusePublishedSecrets(ctx: StepContext): Promise<void> {
  if (ctx.remote === null) return;
  const { defaultBranch } = ctx.journal;
  const secrets = await ctx.meter.check("branch-secrets", async () => {
    for (const base of [
      `refs/remotes/${ctx.remote}/${defaultBranch}`,
      `refs/heads/${defaultBranch}`,
    ]) {
      const added = await ctx.git.additionsSince(base);
      if (added !== null)
        return {
          base: base.replace(/^refs\/(?:remotes|heads)\//, ""),
          found: await scanForSecrets(added),
        };
    }
    return null;
  });
  if (!secrets || secrets.found.length === 0) return;
  throw new StepFailure(
    `commits on \`${ctx.journal.branch}\` since \`${secrets.base}\` add what looks like secrets: ${secrets.found.map(describeSecretFinding).join("; ")}; nothing was pushed.`,
    `take them out of the branch's history (\`git rebase -i ${secrets.base}\`, then edit or drop those commits), ${RESUME}.`,
  );
}

async function openPullRequest(ctx: StepContext): Promise<StepOutcome> {
  const { github, journal } = ctx;
  if (!github) return skipped("local provider: no pull request");
  // Rendered now, not when the archive was planned: the final proof refreshed the evidence since, and the commit step
  // knows which files it committed and left alone.
  journal.body = pullRequestBody(ctx);
  const existing =
    (await ctx.pullRequests) ??
    (await github.pullRequestsFor(journal.branch, journal.defaultBranch));
  const open =
    existing.find((pr) => pr.state === "open") ??
    existing.find((pr) => pr.merged);
  if (open) {
    journal.pr = { number: open.number, url: open.url };
    if (open.merged)
      return skipped(`#${open.number} already merged (${open.url})`);
    // A resume: the proof may have changed since the body was written (a fix, a new final proof).
    await github.updatePullRequest(open.number, { body: journal.body });
    return done(`#${open.number} already open, its body updated (${open.url})`);
  }
  const closed = existing[0];
  if (closed)
    throw new StepFailure(
      `pull request #${closed.number} for \`${journal.branch}\` was closed without being merged (${closed.url}).`,
      `reopen it on GitHub if the work should still be merged, ${RESUME}; playbook does not open a second one.`,
    );
  const pr = await github.createPullRequest({
    title: journal.title,
    body: journal.body,
    head: journal.branch,
    base: journal.defaultBranch,
  });
  journal.pr = { number: pr.number, url: pr.url };
  return done(`#${pr.number} ${pr.url}`);
}

/**
 * The pull request's body from the playbook and its records as they are now (the playbook where it is, at its path
 * or already archived on a resume), with the files the commit step recorded; the body planned with the journal when
 * the playbook cannot be read.
 */
function pullRequestBody(ctx: StepContext): string {
  const { journal } = ctx;
  const proof = ctx.readProof(journal);
  if (!proof) return journal.body;
  return renderPullRequest(
    journal.playbook,
    journal.archivePath,
    proof.playbook,
    proof.records,
    journal.files,
  ).body;
}

async function movePlaybook(ctx: StepContext): Promise<StepOutcome> {
  const { journal, root } = ctx;
  const from = join(root, journal.playbook);
  const to = join(root, journal.archivePath);
  if (!existsSync(from) && existsSync(to))
    return skipped(`already at ${journal.archivePath}`);
  if (!existsSync(from))
    throw new StepFailure(
      `${journal.playbook} is missing and not in plan/archive/ either.`,
      `restore it from git (\`git checkout -- ${journal.playbook}\`), ${RESUME}.`,
    );
  if (existsSync(to))
    throw new StepFailure(
      `${journal.archivePath} already exists.`,
      `move one of the two files away, ${RESUME}.`,
    );
  mkdirSync(dirname(to), { recursive: true });
  await ctx.git.move(journal.playbook, journal.archivePath);
  return done(`${journal.playbook} → ${journal.archivePath}`);
}

async function resetState(ctx: StepContext): Promise<StepOutcome> {
  const { journal, git, root } = ctx;
  const statePath = join(root, "state.md");
  if (!existsSync(statePath))
    throw new StepFailure(
      "state.md is missing.",
      `restore it (\`git checkout -- state.md\`), ${RESUME}.`,
    );
  // One status before state.md is written: no conflict is committed with it, and what else of the archive's is left
  // to commit (the move, or a removal a crash lost). Only this process writes state.md in between.
  const status = await ctx.meter.check("conflicts", () => git.status());
  requireNoConflicts(status.entries);
  const text = readDocumentText(statePath, "state", "state.md");
  const reset = resetStateText(text, journal.archivePath);
  const written = reset.alreadyReset;
  if (!written) {
    // Every field in one edit from one parse, so state.md is parsed and written (and flushed) once.
    const problem = writeStateEdit(root, (current) =>
      current === text
        ? reset.result
        : resetStateText(current, journal.archivePath).result,
    );
    if (problem)
      throw new StepFailure(
        `state.md could not be updated: ${problem}`,
        `fix state.md (\`playbook lint\`), ${RESUME}.`,
      );
  }
  const pending = committableChanges(status.entries).filter(
    (c) =>
      [journal.playbook, journal.archivePath, "state.md"].includes(c.path) ||
      c.from === journal.playbook,
  );
  let detail = written ? "state.md already reset" : "state.md reset";
  if (pending.length > 0 || !written) {
    // The old path is gone from disk after `git mv`; `add --all` stages its removal too when a crash lost it.
    const lostRemoval = pending.some(
      (c) => c.path === journal.playbook && c.worktree === "D",
    );
    await git.addAll([
      "state.md",
      ...(existsSync(join(root, journal.archivePath))
        ? [journal.archivePath]
        : []),
      ...(lostRemoval ? [journal.playbook] : []),
    ]);
    const sha = await git.commit(`chore: archive ${nameOf(journal)}`);
    if (sha !== null) detail += `, committed (${sha.slice(0, 7)})`;
  }
  const pushed = await pushRef(ctx, journal.branch);
  if (pushed.status === "done") detail += ", pushed";
  return written && pending.length === 0 && pushed.status === "skipped"
    ? skipped(detail)
    : done(detail);
}

function mergeBranch(ctx: StepContext): Promise<StepOutcome> {
  return mergeByPolicy(ctx);
}

function setLock(ctx: StepContext): Promise<StepOutcome> {
  const { journal, root } = ctx;
  const degraded = Object.values(journal.steps).some(
    (s) => s.status === "failed",
  );
  const status = degraded ? "partial" : journal.pending ? "pending" : "success";
  const existing = readPostLoopLock(root);
  // A pending lock someone lifted to start the next task is not set again when the merge finally lands.
  if (ctx.resumedFromPending && status === "success" && existing === null)
    return Promise.resolve(
      skipped(
        "the pending lock was lifted meanwhile (`playbook post-loop`): not set again",
      ),
    );
  if (
    existing &&
    existing.playbook === journal.archivePath &&
    existing.status === status &&
    existing.pending?.what === journal.pending?.what
  )
    return Promise.resolve(skipped("already set"));
  writePostLoopLock(root, {
    status,
    playbook: journal.archivePath,
    pr: journal.pr?.url ?? null,
    at: toIsoTime(ctx.now()),
    session: ctx.session,
    pending: journal.pending ?? null,
  });
  return Promise.resolve(done(`post-loop lock set (${status})`));
}
