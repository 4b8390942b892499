import { GitCommandError, PushRejected } from "../../adapters/git-port.ts";
import { trackedChanges } from "../../core/archive/commit-selection.ts";
import {
  isConflict,
  type StatusEntry,
  type WorkTreeStatus,
} from "../../core/archive/git-status.ts";
import type { ArchiveJournal } from "../../core/archive/journal.ts";
import type { PlaybookConfig } from "../../core/config/config.ts";
import type { PlaybookSummary } from "../../core/model/summary.ts";
import type { RecordSet } from "../../core/records/record.ts";
import { PlaybookError } from "../../core/errors.ts";
import type { GitHubPort, GitPort, PullRequest } from "../../core/ports.ts";
import type {
  GateOutcome,
  GateOptions,
  GateRow,
} from "../../core/archive/final-gate.ts";

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
  session: string | null;
  /** Longest wait for pending checks, in seconds. */
  checkWaitSeconds: number;
  pollIntervalMs: number;
  /** `playbook check --rerun` for one playbook: whether every validation agrees with its evidence, and if not why. */
  rerun: (playbook: string, options: GateOptions) => Promise<GateOutcome>;
  /** Told each validation of the final gate as it finishes. */
  onGateRow?: ((row: GateRow) => void) | undefined;
  /** At most this many seconds for the final gate's validations together (the hook's archive); unbounded when absent. */
  gateBudgetSeconds?: number | undefined;
  /** Ctrl-C or SIGTERM at the terminal: the final gate stops, and no step starts after it. */
  signal?: AbortSignal | undefined;
  /** What the safety checks cost, for the benchmark. */
  meter: CostMeter;
  /**
   * The archived playbook and its records as they are now, for the pull request's body: read at the playbook's path,
   * or at its archive path once moved; null when it cannot be read.
   */
  readProof: (
    journal: ArchiveJournal,
  ) => { playbook: PlaybookSummary; records: RecordSet } | null;
  /**
   * The pull requests from the playbook's branch, asked for while the archive was planned (null: ask now). Null
   * inside when that request failed.
   */
  pullRequests: Promise<PullRequest[] | null> | null;
  /**
   * The archive is resumed after its merge was left pending (`archive.merge`): the steps before the merge are done,
   * and the person may have moved on to other work meanwhile.
   */
  resumedFromPending?: boolean;
}

/** What a part of the archive cost: wall time, the git processes it started and the GitHub requests it made. */
export interface Cost {
  ms: number;
  gitProcesses: number;
  requests: number;
}

/**
 * The safety checks whose price the benchmark shows (bench/archive.ts). Each prevents a failure: work archived
 * unfinished, a secret published, a conflict committed, uncommitted work overwritten by a switch, someone else's
 * merge pushed over, unchecked or unseen code merged, a kill that cannot be resumed, code pushed that its
 * validations do not prove (the final gate).
 */
export type SafetyCheck =
  | "readiness"
  | "final-gate"
  | "secrets"
  | "branch-secrets"
  | "conflicts"
  | "clean-tree"
  | "fetch"
  | "pull-request"
  | "journal";

export interface CostMeter {
  /** Runs `work` (sync or async) as part of `check`, adding what it cost; it must not overlap other git work. */
  check<T>(check: SafetyCheck, work: () => T): T;
  /** Starts measuring a span; the function returned gives what it cost so far. */
  start(): () => Cost;
  /** What each check cost in total, and how many times it ran. */
  checks(): Partial<Record<SafetyCheck, Cost & { runs: number }>>;
}

/** A meter reading the clock (monotonic, in ms), the git port's process count and the GitHub port's request count. */
export function createCostMeter(
  clock: () => number,
  git: GitPort,
  github: GitHubPort | null,
): CostMeter {
  const totals: Partial<Record<SafetyCheck, Cost & { runs: number }>> = {};
  const start = (): (() => Cost) => {
    const ms = clock();
    const processes = git.spawned();
    const requests = github?.requests() ?? 0;
    return () => ({
      ms: clock() - ms,
      gitProcesses: git.spawned() - processes,
      requests: (github?.requests() ?? 0) - requests,
    });
  };
  const add = (check: SafetyCheck, cost: Cost) => {
    const total = (totals[check] ??= {
      ms: 0,
      gitProcesses: 0,
      requests: 0,
      runs: 0,
    });
    total.ms += cost.ms;
    total.gitProcesses += cost.gitProcesses;
    total.requests += cost.requests;
    total.runs++;
  };
  return {
    check<T>(check: SafetyCheck, work: () => T): T {
      const stop = start();
      let result: T;
      try {
        result = work();
      } catch (error) {
        add(check, stop());
        throw error;
      }
      if (result instanceof Promise)
        return result.finally(() => add(check, stop())) as T;
      add(check, stop());
      return result;
    },
    start,
    checks: () => totals,
  };
}

export interface StepOutcome {
  status: "done" | "skipped";
  detail: string;
}

export const RESUME = "then run `playbook archive --resume`";

/**
 * How often the default branch may move under one merge before the archive stops: each time another archive (a
 * parallel session) merged first, and this one merges again on top of it. Every lost round is another archive's
 * merge, so N sessions finishing at once need at most N - 1 rounds.
 */
export const MERGE_ATTEMPTS = 20;

export const done = (detail: string): StepOutcome => ({
  status: "done",
  detail,
});
export const skipped = (detail: string): StepOutcome => ({
  status: "skipped",
  detail,
});

export function messageOf(error: unknown): string {
  return error instanceof GitCommandError || error instanceof Error
    ? error.message
    : String(error);
}

/**
 * Stops when uncommitted changes could be overwritten by what the caller is `doing` (a switch, a merge). Takes a
 * status read in the same moment by the caller when it has one, else reads one.
 */
export async function requireCleanTree(
  ctx: StepContext,
  doing: string,
  known?: WorkTreeStatus,
): Promise<void> {
  const status =
    known ?? (await ctx.meter.check("clean-tree", () => ctx.git.status()));
  // Untracked files (those the commit step left alone) stay: git refuses to overwrite one rather than lose it.
  const dirty = trackedChanges(status.entries);
  requireNoConflicts(dirty);
  if (dirty.length > 0)
    throw new StepFailure(
      `${dirty.length} file${dirty.length === 1 ? " has" : "s have"} uncommitted changes (${dirty
        .slice(0, 5)
        .map((c) => c.path)
        .join(", ")}), which ${doing} could overwrite.`,
      `commit or \`git stash\` them, ${RESUME}.`,
    );
}

/** Stops at a merge left in progress with conflicts (one the archive left for a person, or their own). */
export function requireNoConflicts(status: readonly StatusEntry[]): void {
  const conflicts = status.filter(isConflict).map((c) => c.path);
  if (conflicts.length > 0)
    throw new StepFailure(
      `${conflicts.join(", ")} ${conflicts.length === 1 ? "has" : "have"} unresolved merge conflicts.`,
      `resolve them, \`git add\` them and \`git commit\`, ${RESUME}.`,
    );
}

/** Pushes the local `branch` to the remote, never forced. */
export async function pushRef(
  ctx: StepContext,
  branch: string,
): Promise<StepOutcome> {
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
    pushed = await git.push(remote, branch);
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
