import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { GitCommandError, PushRejected } from "../../adapters/git-port.ts";
import type { GitHubPort, GitPort, RefSnapshot } from "../../core/ports.ts";
import { GitHubError } from "../../adapters/github-port.ts";
import {
  readPostLoopLock,
  writePostLoopLock,
} from "../../adapters/runtime-files.ts";
import {
  committableChanges,
  isConflict,
} from "../../core/archive/git-status.ts";
import {
  stateResetEdits,
  type ArchiveJournal,
  type ArchiveStepId,
} from "../../core/archive/journal.ts";
import { findSecrets } from "../../core/archive/secrets.ts";
import type { PlaybookConfig } from "../../core/config/config.ts";
import type { StateSummary } from "../../core/model/summary.ts";
import { PlaybookError } from "../../core/errors.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";
import {
  writeStateEdit,
  type SetStateField,
} from "../workspace/write-state-field.ts";

/** Why a step stopped the archive, and the one thing to do before `playbook archive --resume`. */
export class StepFailure extends PlaybookError {
  readonly next: string;
  constructor(reason: string, next: string) {
    super("E_ARCHIVE", reason, { hint: next });
    this.name = "StepFailure";
    this.next = next;
  }
}

export interface StepContext {
  root: string;
  journal: ArchiveJournal;
  git: GitPort;
  github: GitHubPort | null;
  /** The git remote, or null when the repository has none (the local provider then only merges). */
  remote: string | null;
  config: PlaybookConfig["archive"];
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  setStateField: SetStateField;
  summarizeState: (text: string) => StateSummary;
  session: string | null;
  /** Longest wait for pending checks, in seconds. */
  checkWaitSeconds: number;
  pollIntervalMs: number;
  /** `playbook check --rerun` for one playbook: whether every validation agrees with its evidence, and if not why. */
  rerun: (playbook: string) => Promise<{ ok: boolean; detail: string }>;
}

export interface StepOutcome {
  status: "done" | "skipped";
  detail: string;
}

/**
 * One step of the archive: what it will do, in words (`playbook archive --dry-run` prints exactly these), and doing
 * it. Each `run` checks the real state first, so running a step twice is always safe.
 */
export interface ArchiveStep {
  describe: (journal: ArchiveJournal, remote: string | null) => string;
  run: (ctx: StepContext) => Promise<StepOutcome>;
}

const RESUME = "then run `playbook archive --resume`";
const done = (detail: string): StepOutcome => ({ status: "done", detail });
const skipped = (detail: string): StepOutcome => ({
  status: "skipped",
  detail,
});

const pushTo = (remote: string | null) =>
  remote === null ? "no remote: nothing is pushed" : `to ${remote}`;

/** The steps of docs/archive.md, by id (`ARCHIVE_STEPS` gives their order). */
export const ARCHIVE_STEP_DEFS: Readonly<Record<ArchiveStepId, ArchiveStep>> = {
  commit: {
    describe: (journal) =>
      `commit tracked changes and new files git does not ignore on ${journal.branch} (secrets refused)`,
    run: commitWork,
  },
  push: {
    describe: (journal, remote) => `push ${journal.branch} ${pushTo(remote)}`,
    run: pushBranch,
  },
  "open-pr": {
    describe: (journal) =>
      journal.provider === "github"
        ? `open (or find) the pull request "${journal.title}" into ${journal.defaultBranch}`
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
    describe: (journal, remote) =>
      journal.provider === "github"
        ? `wait for checks, then merge the pull request into ${journal.defaultBranch}`
        : `merge ${journal.branch} into ${journal.defaultBranch} with --no-ff, push ${pushTo(remote)}`,
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

async function commitWork(ctx: StepContext): Promise<StepOutcome> {
  const { git, journal } = ctx;
  if (
    journal.steps["commit"]?.status === "done" ||
    journal.steps["commit"]?.status === "skipped"
  )
    return skipped("committed before");
  const [branch, status] = await Promise.all([
    git.currentBranch(),
    git.status(),
  ]);
  if (branch === null)
    throw new StepFailure(
      "HEAD is detached, so there is no branch to commit on.",
      `\`git switch ${journal.branch}\`, ${RESUME}.`,
    );
  const changes = committableChanges(status);
  if (branch !== journal.branch) {
    if (changes.length === 0 && (await git.resolve(journal.branch)) !== null)
      return skipped("nothing to commit");
    throw new StepFailure(
      `git is on \`${branch}\`, not on the playbook's branch \`${journal.branch}\`${changes.length > 0 ? ` and ${changes.length} files have uncommitted changes` : ""}.`,
      `\`git switch ${journal.branch}\` (uncommitted changes come along), ${RESUME}.`,
    );
  }
  if (changes.length === 0) return skipped("nothing to commit");
  const conflicts = changes.filter(isConflict);
  if (conflicts.length > 0)
    throw new StepFailure(
      `${conflicts.map((c) => c.path).join(", ")} ${conflicts.length === 1 ? "has" : "have"} unresolved merge conflicts.`,
      `resolve them and \`git add\` them, ${RESUME}.`,
    );
  const secrets = findSecrets(
    changes.map((c) => ({
      path: c.path,
      content:
        c.worktree === "D" || c.index === "D"
          ? null
          : readSmall(join(ctx.root, c.path)),
    })),
  );
  if (secrets.length > 0)
    throw new StepFailure(
      `these files look like secrets and are not committed: ${secrets.map((s) => `${s.path} (${s.reason})`).join(", ")}.`,
      `remove them, or add them to .gitignore if they must stay on this machine, ${RESUME}. Nothing was committed or deleted.`,
    );
  const paths = [
    ...new Set(changes.flatMap((c) => (c.from ? [c.from, c.path] : [c.path]))),
  ];
  await git.addAll(paths);
  const sha = await git.commit(`feat(${nameOf(journal)}): ${journal.title}`);
  return done(
    `${paths.length} file${paths.length === 1 ? "" : "s"} (${sha.slice(0, 7)})`,
  );
}

async function pushBranch(ctx: StepContext): Promise<StepOutcome> {
  // `archive.requireRerun`: nothing leaves this clone (and nothing is merged) unless the validations, run again in
  // the sandbox on the committed work, agree with the evidence.
  if (ctx.config.requireRerun) {
    const rerun = await ctx.rerun(ctx.journal.playbook);
    if (!rerun.ok)
      throw new StepFailure(
        `\`playbook check --rerun\` disagrees with the evidence (${rerun.detail}); nothing was pushed.`,
        `fix what it names, run \`npx --no playbook verify <id>\` for those subtasks and commit, ${RESUME}.`,
      );
  }
  return pushRef(ctx, ctx.journal.branch);
}

async function pushRef(ctx: StepContext, branch: string): Promise<StepOutcome> {
  const { git, remote } = ctx;
  if (remote === null) {
    if (ctx.github)
      throw new StepFailure(
        "the repository has no git remote to push to.",
        `add one (\`git remote add origin <url>\`), ${RESUME}.`,
      );
    return skipped("no remote");
  }
  // One `git push`: git itself refuses when the remote has commits this clone lacks, and says when nothing moved.
  let pushed: Awaited<ReturnType<GitPort["push"]>>;
  try {
    pushed = await git.push(remote, branch, branch === ctx.journal.branch);
  } catch (error) {
    if (error instanceof PushRejected)
      throw new StepFailure(
        `${remote}/${branch} has commits this clone does not have, and playbook never force-pushes.`,
        `\`git pull --rebase ${remote} ${branch}\` on \`${branch}\` (or merge it), ${RESUME}.`,
      );
    if (/src refspec .* does not match/.test(messageOf(error)))
      throw new StepFailure(
        `the branch \`${branch}\` does not exist here.`,
        `create it or fix the playbook's branch, ${RESUME}.`,
      );
    throw new StepFailure(
      `pushing ${branch} to ${remote} failed: ${messageOf(error)}`,
      `fix the remote or your access, ${RESUME}.`,
    );
  }
  return pushed.status === "up-to-date"
    ? skipped(`${remote}/${branch} is up to date`)
    : done(`${branch} → ${remote} (${pushed.summary})`);
}

async function openPullRequest(ctx: StepContext): Promise<StepOutcome> {
  const { github, journal } = ctx;
  if (!github) return skipped("local provider: no pull request");
  const existing = await github.pullRequestsFor(
    journal.branch,
    journal.defaultBranch,
  );
  const open =
    existing.find((pr) => pr.state === "open") ??
    existing.find((pr) => pr.merged);
  if (open) {
    journal.pr = { number: open.number, url: open.url };
    return skipped(
      `#${open.number} ${open.merged ? "already merged" : "already open"} (${open.url})`,
    );
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
  const state = ctx.summarizeState(readFileSync(statePath, "utf8"));
  const written =
    state.playbook.active === null &&
    state.playbook.lastArchived === journal.archivePath;
  if (!written) {
    for (const edit of stateResetEdits(journal.archivePath)) {
      const problem = writeStateEdit(root, (text) =>
        ctx.setStateField(text, edit.section, edit.key, edit.value),
      );
      if (problem)
        throw new StepFailure(
          `state.md could not be updated: ${problem}`,
          `fix state.md (\`playbook lint\`), ${RESUME}.`,
        );
    }
  }
  const pending = committableChanges(await git.status()).filter(
    (c) =>
      [journal.playbook, journal.archivePath, "state.md"].includes(c.path) ||
      c.from === journal.playbook,
  );
  let detail = written ? "state.md already reset" : "state.md reset";
  if (pending.length > 0) {
    // The old path is gone from disk after `git mv`; its removal is staged, or staged here if a crash lost it.
    await git.addAll(
      ["state.md", journal.archivePath].filter((p) =>
        existsSync(join(root, p)),
      ),
    );
    if (pending.some((c) => c.path === journal.playbook && c.worktree === "D"))
      await git.removeFromIndex(journal.playbook);
    const sha = await git.commit(`chore: archive ${nameOf(journal)}`);
    detail += `, committed (${sha.slice(0, 7)})`;
  }
  const pushed = await pushRef(ctx, journal.branch);
  if (pushed.status === "done") detail += ", pushed";
  return written && pending.length === 0 && pushed.status === "skipped"
    ? skipped(detail)
    : done(detail);
}

async function mergeBranch(ctx: StepContext): Promise<StepOutcome> {
  return ctx.github ? mergePullRequest(ctx, ctx.github) : mergeLocally(ctx);
}

async function mergePullRequest(
  ctx: StepContext,
  github: GitHubPort,
): Promise<StepOutcome> {
  const { journal, git } = ctx;
  if (!journal.pr)
    throw new StepFailure(
      "there is no pull request to merge.",
      `run \`playbook archive --resume\` again to open one.`,
    );
  const local = await git.resolve(`refs/heads/${journal.branch}`);
  // The checks are asked for the local head while the pull request is read: they are the same commit unless
  // someone pushed (refused below) or a fix was committed here after the archive stopped (pushed below).
  const [first, firstChecks] = await Promise.all([
    github.getPullRequest(journal.pr.number),
    local === null ? null : github.checks(local).catch(() => null),
  ]);
  let pr = first;
  if (pr.merged) return skipped(`#${pr.number} already merged`);
  if (pr.state === "closed")
    throw new StepFailure(
      `pull request #${pr.number} was closed without being merged (${pr.url}).`,
      `reopen it on GitHub, ${RESUME}.`,
    );
  if (local !== null && pr.headSha !== local) {
    // A fix for failing checks, committed after the archive stopped: it goes up, and the pull request with it.
    const pushed = await pushRef(ctx, journal.branch);
    if (pushed.status === "done") pr = await github.getPullRequest(pr.number);
  }
  if (local !== null && pr.headSha !== local)
    throw new StepFailure(
      `the pull request's head (${pr.headSha.slice(0, 7)}) differs from the local branch (${local.slice(0, 7)}): someone else pushed to it.`,
      `\`git pull\` on \`${journal.branch}\` and check the changes, ${RESUME}.`,
    );
  const deadline = ctx.now().getTime() + ctx.checkWaitSeconds * 1000;
  let known = pr.headSha === local ? firstChecks : null;
  for (;;) {
    const { pending, failed } = known ?? (await github.checks(pr.headSha));
    known = null;
    if (failed.length > 0)
      throw new StepFailure(
        `checks failed on #${pr.number}: ${failed.join(", ")}.`,
        `fix them on \`${journal.branch}\` and commit the fix (the archive pushes it), ${RESUME}.`,
      );
    if (pending.length === 0) break;
    if (ctx.now().getTime() >= deadline)
      throw new StepFailure(
        `checks are still running on #${pr.number} after ${ctx.checkWaitSeconds} s: ${pending.join(", ")}.`,
        `wait for them (${pr.url}), ${RESUME}.`,
      );
    await ctx.sleep(ctx.pollIntervalMs);
    pr = await github.getPullRequest(pr.number);
  }
  try {
    const sha = await github.merge(pr.number, {
      sha: pr.headSha,
      method: ctx.config.mergeMethod,
      title: `${journal.title} (#${pr.number})`,
    });
    return done(
      `#${pr.number} merged with ${ctx.config.mergeMethod} (${sha.slice(0, 7)})`,
    );
  } catch (error) {
    if (error instanceof GitHubError && error.status === 409)
      throw new StepFailure(
        `the branch changed while merging #${pr.number}.`,
        `\`git pull\` on \`${journal.branch}\`, ${RESUME}.`,
      );
    if (error instanceof GitHubError && error.status === 405)
      throw new StepFailure(
        `GitHub refused to merge #${pr.number}: ${error.message}.`,
        `see ${pr.url} (conflicts, branch protection or reviews), ${RESUME}.`,
      );
    throw error;
  }
}

async function mergeLocally(ctx: StepContext): Promise<StepOutcome> {
  const { git, journal, remote } = ctx;
  const branchRef = `refs/heads/${journal.branch}`;
  const target = journal.defaultBranch;
  const targetRef = `refs/heads/${target}`;
  const refs = await syncDefault(ctx, [branchRef]);
  const head = refs.sha.get(branchRef);
  if (head === undefined)
    throw new StepFailure(
      `the branch \`${journal.branch}\` does not exist here.`,
      `restore it, ${RESUME}.`,
    );
  let detail: string;
  const targetSha = refs.sha.get(targetRef) ?? targetRef;
  if (head === targetSha || (await git.isAncestor(head, targetSha)))
    detail = `${journal.branch} already in ${target}`;
  else {
    await requireCleanTree(ctx, `merging into ${target}`);
    if (refs.head !== targetRef) await git.switchTo(target);
    try {
      await git.mergeNoFf(
        journal.branch,
        `Merge branch '${journal.branch}': ${journal.title}`,
      );
    } catch (error) {
      await git.abortMerge();
      throw new StepFailure(
        `merging ${journal.branch} into ${target} conflicts (${messageOf(error)}); the merge was aborted, nothing changed.`,
        `merge it yourself (\`git switch ${target} && git merge ${journal.branch}\`), ${RESUME}.`,
      );
    }
    detail = `${journal.branch} merged into ${target} (--no-ff)`;
  }
  if (remote !== null) {
    const pushed = await pushRef(ctx, target);
    if (pushed.status === "done") detail += `, pushed to ${remote}`;
  }
  return done(detail);
}

/**
 * Brings the local default branch up to its remote (fast-forward only); never moves it backwards or sideways.
 * Returns the default branch, its remote copy and `extra` refs as they stand afterwards (one `for-each-ref`).
 */
async function syncDefault(
  ctx: StepContext,
  extra: readonly string[] = [],
): Promise<RefSnapshot> {
  const { git, remote, journal } = ctx;
  const target = journal.defaultBranch;
  const localRef = `refs/heads/${target}`;
  const fetched = remote !== null && (await git.fetch(remote, target));
  const upstreamRef = `refs/remotes/${remote ?? ""}/${target}`;
  const refs = await git.refs([
    localRef,
    ...(fetched ? [upstreamRef] : []),
    ...extra,
  ]);
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

async function requireCleanTree(
  ctx: StepContext,
  doing: string,
): Promise<void> {
  const dirty = committableChanges(await ctx.git.status());
  if (dirty.length > 0)
    throw new StepFailure(
      `${dirty.length} file${dirty.length === 1 ? " has" : "s have"} uncommitted changes (${dirty
        .slice(0, 5)
        .map((c) => c.path)
        .join(", ")}), which ${doing} could overwrite.`,
      `commit or \`git stash\` them, ${RESUME}.`,
    );
}

async function cleanup(ctx: StepContext): Promise<StepOutcome> {
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
  // GitHub merged on the server, so the local default branch is behind; a local merge already updated it.
  const onDefault = github
    ? (await syncDefault(ctx)).head === `refs/heads/${journal.defaultBranch}`
    : (await git.currentBranch()) === journal.defaultBranch;
  if (!onDefault) {
    await requireCleanTree(ctx, `switching to ${journal.defaultBranch}`);
    await git.switchTo(journal.defaultBranch);
    notes.push(`on ${journal.defaultBranch}`);
  }
  return notes.length > 0
    ? done(notes.join(", "))
    : skipped(`on ${journal.defaultBranch}`);
}

function setLock(ctx: StepContext): Promise<StepOutcome> {
  const { journal, root } = ctx;
  const existing = readPostLoopLock(root);
  if (existing && existing.playbook === journal.archivePath)
    return Promise.resolve(skipped("already set"));
  const degraded = Object.values(journal.steps).some(
    (s) => s.status === "failed",
  );
  writePostLoopLock(root, {
    status: degraded ? "partial" : "success",
    playbook: journal.archivePath,
    pr: journal.pr?.url ?? null,
    at: toIsoTime(ctx.now()),
    session: ctx.session,
  });
  return Promise.resolve(
    done(`post-loop lock set (${degraded ? "partial" : "success"})`),
  );
}

function nameOf(journal: ArchiveJournal): string {
  return journal.playbook.replace(/^.*\/playbook-/, "").replace(/\.md$/, "");
}

function messageOf(error: unknown): string {
  return error instanceof GitCommandError || error instanceof Error
    ? error.message
    : String(error);
}

/** A file's text for the secret scan, up to 1 MiB; null when it is missing, a folder or binary. */
function readSmall(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    const text = readFileSync(path, "utf8").slice(0, 1024 * 1024);
    return text.includes("\0") ? null : text;
  } catch {
    return null;
  }
}
