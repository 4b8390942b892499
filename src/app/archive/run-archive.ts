import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  readArchiveJournal,
  writeArchiveJournal,
} from "../../adapters/archive-journal-store.ts";
import type { GitHubPort, GitPort, PullRequest } from "../../core/ports.ts";
import { readPostLoopLock } from "../../adapters/runtime-files.ts";
import { GitHubError } from "../../adapters/github-error.ts";
import type { GitHubPortOptions } from "../../adapters/github-port.ts";
import { chooseProvider } from "../../core/archive/github-remote.ts";
import {
  ARCHIVE_STEPS,
  archivePathFor,
  type ArchiveJournal,
  type ArchiveStepId,
} from "../../core/archive/journal.ts";
import type { GateRow } from "../../core/archive/final-gate.ts";
import { renderPullRequest } from "../../core/archive/pull-request-text.ts";
import type {
  PlaybookSummary,
  StateSummary,
} from "../../core/model/summary.ts";
import type { PlaybookConfig } from "../../core/config/config.ts";
import { PlaybookError } from "../../core/errors.ts";
import { findMissingProof } from "../../core/records/completion.ts";
import type { RecordSet } from "../../core/records/record.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../../core/validate/active-path.ts";
import { currentTreeFingerprintSoon } from "../workspace/current-tree.ts";
import {
  archiveBranch,
  assertFinished,
  assertLintClean,
  assertMergeable,
} from "../../core/archive/readiness.ts";
import {
  ARCHIVE_STEP_DEFS,
  BEST_EFFORT_STEPS,
  StepFailure,
  type StepContext,
} from "./archive-steps.ts";
import {
  createCostMeter,
  type Cost,
  type CostMeter,
  type SafetyCheck,
} from "./step-kit.ts";

export interface ArchiveOptions {
  dryRun: boolean;
  resume: boolean;
  /** `--provider`: overrides `archive.provider`. */
  provider: "github" | "local" | null;
  session: string | null;
  onProgress?: (step: StepReport) => void;
  /** Told each validation of the final gate (the push step) as it finishes. */
  onGateRow?: (row: GateRow) => void;
  /** At most this many seconds for the final gate's validations together (the hook passes one); unbounded by default. */
  gateBudgetSeconds?: number;
  /** Ctrl-C or SIGTERM (adapters/interrupt.ts): the final gate stops its validations, and no further step starts. */
  signal?: AbortSignal | undefined;
}

export interface ArchiveDeps {
  git: GitPort;
  createGitHub: (
    options: Omit<GitHubPortOptions, "retries">,
  ) => GitHubPort | Promise<GitHubPort>;
  findToken: () => string | null;
  env: Readonly<Record<string, string | undefined>>;
  config: PlaybookConfig;
  now: () => Date;
  /** A monotonic clock in milliseconds, for what the parts of the archive cost. */
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  pollIntervalMs: number;
  newId: () => string;
  readState: (root: string) => StateSummary | null;
  readPlaybook: (root: string, path: string) => PlaybookSummary | null;
  readRecords: (root: string, path: string) => RecordSet;
  /** `playbook check --rerun` of one playbook (for `archive.requireRerun`). */
  rerun: StepContext["rerun"];
}

export interface StepReport {
  id: ArchiveStepId;
  status: "done" | "skipped" | "failed" | "planned";
  detail: string;
}

export interface ArchiveOutcome {
  /**
   * `already-archived`: the last archive finished and nothing is left to archive; nothing was done. `pending`: all
   * done but the merge, which `archive.merge` leaves to GitHub or a person (`journal.pending` says what).
   */
  status: "success" | "partial" | "pending" | "planned" | "already-archived";
  journal: ArchiveJournal;
  steps: StepReport[];
  /** The one thing to do next when the archive stopped. */
  next: string | null;
  notes: string[];
  /** How many git processes this run started (for the benchmark). */
  gitProcesses: number;
  /** What the plan, each step and each safety check cost (for the benchmark); null when nothing ran. */
  costs: ArchiveCosts | null;
}

export interface ArchiveCosts {
  /** From the start to the first step: choosing the provider, the readiness checks, the pull request's text. */
  plan: Cost;
  steps: Partial<Record<ArchiveStepId, Cost>>;
  /** Each safety check's total over the run (also counted in the plan or its step), and how often it ran. */
  checks: Partial<Record<SafetyCheck, Cost & { runs: number }>>;
  /** All of it, from the start to the outcome. */
  total: Cost;
}

/**
 * `playbook archive` (docs/archive.md): plans the archive of the finished active playbook (or takes up the journal with
 * `--resume`), then runs the eight steps in order, saving the journal after each. A step that cannot go on stops the
 * archive with status `partial` and one next step; nothing is discarded, force-pushed or cleaned. Running it again
 * after a crash at any point converges to the same end: one pull request, one merge, the playbook archived.
 *
 * Run again once the archive finished (plain, `--resume` or `--dry-run`), it changes nothing and says so, with the
 * next step.
 *
 * @throws PlaybookError E_CONFIG when there is nothing to archive or resume, or another archive is unfinished.
 */
export async function runArchive(
  root: string,
  options: ArchiveOptions,
  deps: ArchiveDeps,
): Promise<ArchiveOutcome> {
  const finished = alreadyArchived(root, options, deps);
  if (finished) return finished;
  const started = deps.clock();
  const startedProcesses = deps.git.spawned();
  const notes: string[] = [];
  const remoteUrl = await deps.git.remoteUrl(deps.config.archive.remote);
  const remote = remoteUrl === null ? null : deps.config.archive.remote;
  const token =
    options.provider === "local" || deps.config.archive.provider === "local"
      ? null
      : deps.findToken();
  const choice = chooseProvider({
    configured: options.provider ?? deps.config.archive.provider,
    remoteUrl,
    repository: deps.config.archive.repository,
    apiUrl: deps.config.archive.apiUrl,
    envApiUrl: deps.env["GITHUB_API_URL"] ?? null,
    hasToken: token !== null,
  });
  if (choice.provider === null)
    throw new PlaybookError("E_CONFIG", choice.problem, {
      hint: "Or merge without GitHub: `playbook archive --provider local`. Nothing was changed.",
    });
  if (choice.provider === "local" && choice.note) notes.push(choice.note);
  const github =
    choice.provider === "github" && token !== null
      ? await deps.createGitHub({
          token,
          baseUrl: choice.apiUrl,
          ...choice.repository,
        })
      : null;
  const meter = createCostMeter(deps.clock, deps.git, github);
  const spanOf = (from: number, processes: number, requests: number) => ({
    ms: deps.clock() - from,
    gitProcesses: deps.git.spawned() - processes,
    requests: (github?.requests() ?? 0) - requests,
  });
  const plan = options.resume
    ? { journal: resumeJournal(root, choice.provider), pulls: null }
    : await planJournal(root, options, deps, github, choice.provider, meter);
  const { journal } = plan;
  const ctx: StepContext = {
    root,
    journal,
    git: deps.git,
    github,
    remote,
    config: deps.config.archive,
    now: deps.now,
    sleep: deps.sleep,
    session: options.session ?? journal.session,
    checkWaitSeconds: deps.config.archive.checkWaitSeconds,
    pollIntervalMs: deps.pollIntervalMs,
    rerun: deps.rerun,
    onGateRow: options.onGateRow,
    gateBudgetSeconds: options.gateBudgetSeconds,
    signal: options.signal,
    meter,
    pullRequests: plan.pulls,
    readProof: (j) => {
      const playbook =
        deps.readPlaybook(root, j.playbook) ??
        deps.readPlaybook(root, j.archivePath);
      return playbook
        ? { playbook, records: deps.readRecords(root, j.playbook) }
        : null;
    },
  };
  const costs: ArchiveCosts = {
    plan: spanOf(started, startedProcesses, 0),
    steps: {},
    checks: {},
    total: { ms: 0, gitProcesses: 0, requests: 0 },
  };
  const outcome = (
    status: ArchiveOutcome["status"],
    steps: StepReport[],
    next: string | null,
  ): ArchiveOutcome => {
    costs.checks = meter.checks();
    costs.total = spanOf(started, startedProcesses, 0);
    return {
      status,
      journal,
      steps,
      next,
      notes,
      gitProcesses: deps.git.spawned(),
      costs,
    };
  };
  if (options.dryRun)
    return outcome(
      "planned",
      ARCHIVE_STEPS.map((id) => ({
        id,
        status: "planned",
        detail: ARCHIVE_STEP_DEFS[id].describe(
          journal,
          remote,
          deps.config.archive.merge,
        ),
      })),
      null,
    );
  ctx.resumedFromPending = journal.status === "pending";
  journal.status = "running";
  journal.next = null;
  saveJournal(root, journal, meter);
  const steps: StepReport[] = [];
  for (const id of ARCHIVE_STEPS) {
    if (options.signal?.aborted === true) {
      // Stopped between steps: what is done stays done, and --resume goes on from here.
      const next = "run `playbook archive --resume` to go on from this step";
      journal.status = "partial";
      journal.next = next;
      saveJournal(root, journal, meter);
      return outcome("partial", steps, next);
    }
    const step = meter.start();
    const report =
      ctx.resumedFromPending && doneBeforeMerge(journal, id)
        ? {
            id,
            status: "skipped" as const,
            detail: "done before the merge was left pending",
            next: "",
          }
        : await runStep(id, ctx);
    costs.steps[id] = step();
    steps.push(report);
    journal.steps[id] = {
      status: report.status === "planned" ? "done" : report.status,
      at: toIsoTime(deps.now()),
      detail: report.detail,
    };
    options.onProgress?.(report);
    if (report.status === "failed" && !BEST_EFFORT_STEPS.has(id)) {
      journal.status = "partial";
      journal.next = report.next;
      saveJournal(root, journal, meter);
      return outcome("partial", steps, report.next);
    }
    if (report.status === "failed")
      notes.push(`${id} did not finish (${report.detail}); ${report.next}`);
    // A step that changed nothing needs no record on disk yet: after a kill it is checked again, and skipped
    // again. The last step's record goes with the outcome's, in one write.
    if (report.status !== "skipped" && id !== ARCHIVE_STEPS.at(-1))
      saveJournal(root, journal, meter);
  }
  const degraded = steps.some((s) => s.status === "failed");
  journal.status = degraded
    ? "partial"
    : journal.pending
      ? "pending"
      : "success";
  journal.next = degraded
    ? (steps.find((s) => s.status === "failed")?.detail ?? null)
    : (journal.pending?.next ?? null);
  saveJournal(root, journal, meter);
  return outcome(journal.status, steps, journal.next);
}

/**
 * A step before the merge that an archive left pending had finished: not run again on its resume, since the
 * working tree may be on the next task by then (its state.md is not this archive's to reset). A fix for the pull
 * request is pushed by the merge step itself.
 */
function doneBeforeMerge(journal: ArchiveJournal, id: ArchiveStepId): boolean {
  const before = ARCHIVE_STEPS.indexOf(id) < ARCHIVE_STEPS.indexOf("merge");
  const status = journal.steps[id]?.status;
  return before && (status === "done" || status === "skipped");
}

/** The journal on disk, flushed: what a kill after this point resumes from. */
function saveJournal(
  root: string,
  journal: ArchiveJournal,
  meter: CostMeter,
): void {
  meter.check("journal", () => writeArchiveJournal(root, journal));
}

async function runStep(
  id: ArchiveStepId,
  ctx: StepContext,
): Promise<StepReport & { next: string }> {
  try {
    const outcome = await ARCHIVE_STEP_DEFS[id].run(ctx);
    return { id, ...outcome, next: "" };
  } catch (error) {
    if (error instanceof StepFailure)
      return { id, status: "failed", detail: error.message, next: error.next };
    const detail = error instanceof Error ? error.message : String(error);
    const network = error instanceof GitHubError && error.status === 0;
    return {
      id,
      status: "failed",
      detail,
      next: network
        ? "check the network or GITHUB_API_URL, then run `playbook archive --resume`"
        : "fix what the message says, then run `playbook archive --resume`",
    };
  }
}

/**
 * The outcome of an archive that already finished: its journal says success, and there is nothing new to archive
 * (a resume, or no active playbook in state.md). Null when there is work to plan or resume.
 */
function alreadyArchived(
  root: string,
  options: ArchiveOptions,
  deps: ArchiveDeps,
): ArchiveOutcome | null {
  const stored = readArchiveJournal(root);
  if (stored.status !== "ok" || stored.journal.status !== "success")
    return null;
  if (
    !options.resume &&
    (deps.readState(root)?.playbook.active ?? null) !== null
  )
    return null;
  return {
    status: "already-archived",
    journal: stored.journal,
    steps: [],
    next: readPostLoopLock(root)
      ? "Run /post-loop (`playbook post-loop`) to pick the next task."
      : "Start the next task with /playbook-init.",
    notes: [],
    gitProcesses: 0,
    costs: null,
  };
}

function resumeJournal(
  root: string,
  provider: "github" | "local",
): ArchiveJournal {
  const stored = readArchiveJournal(root);
  if (stored.status === "missing")
    throw new PlaybookError("E_CONFIG", "There is no archive to resume.", {
      hint: "Run `playbook archive` to start one.",
    });
  if (stored.status === "corrupt")
    throw new PlaybookError(
      "E_CONFIG",
      `The archive cannot be resumed: ${stored.problem}.`,
      {
        hint: "Look at .claude/playbook/archive-journal.json; `git log` and the pull requests show how far it got.",
        location: { file: ".claude/playbook/archive-journal.json" },
      },
    );
  if (stored.journal.provider !== provider)
    throw new PlaybookError(
      "E_CONFIG",
      `The archive of ${stored.journal.playbook} started with the ${stored.journal.provider} provider, and now ${provider} would be used.`,
      {
        hint: `Resume with \`playbook archive --resume --provider ${stored.journal.provider}\`.`,
      },
    );
  return stored.journal;
}

/**
 * Settles now, so a promise started early never rejects unobserved when the plan stops before reading it; `get`
 * gives its value or throws its error.
 */
function early<T>(promise: Promise<T>): { get: () => Promise<T> } {
  const settled = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return {
    get: async () => {
      const result = await settled;
      if (result.ok) return result.value;
      throw result.error;
    },
  };
}

async function planJournal(
  root: string,
  options: ArchiveOptions,
  deps: ArchiveDeps,
  github: GitHubPort | null,
  provider: "github" | "local",
  meter: CostMeter,
): Promise<{
  journal: ArchiveJournal;
  pulls: Promise<PullRequest[] | null> | null;
}> {
  const stored = readArchiveJournal(root);
  if (stored.status === "ok" && stored.journal.status === "pending")
    throw new PlaybookError(
      "E_CONFIG",
      `The archive of ${stored.journal.playbook} waits for its merge: ${stored.journal.pending?.what ?? "see `playbook status`"}.`,
      {
        hint: "Run `playbook archive --resume` once it is merged, then archive the next playbook.",
      },
    );
  if (stored.status === "ok" && stored.journal.status !== "success")
    throw new PlaybookError(
      "E_CONFIG",
      `The archive of ${stored.journal.playbook} is unfinished${stored.journal.next ? `: ${stored.journal.next}` : ""}.`,
      { hint: "Run `playbook archive --resume` to finish it." },
    );
  // git and GitHub answer while the playbook is parsed: the default branch, and the tree's fingerprint.
  const defaultBranch = early(
    github
      ? github.defaultBranch()
      : deps.git
          .localDefaultBranch(deps.config.archive.remote)
          .then((name) => name ?? "main"),
  );
  // With the final proof on, each validation runs again on the commit before anything is pushed: evidence of an
  // earlier tree is what it replaces, so only the records' presence and verdicts are asked for here.
  const fingerprint = deps.config.archive.requireRerun
    ? { result: Promise.resolve(undefined), cancel: () => {} }
    : currentTreeFingerprintSoon(root);
  try {
    const state = deps.readState(root);
    const active = state?.playbook.active ?? null;
    if (!state || active === null)
      throw new PlaybookError(
        "E_CONFIG",
        "There is no active playbook to archive (state.md names none).",
        {
          hint: "`playbook status` shows where the work stands.",
        },
      );
    const unsafe = explainUnsafeActivePath(active);
    if (unsafe)
      throw new PlaybookError(
        "E_CONFIG",
        `state.md's active playbook cannot be used: ${unsafe}.`,
        { hint: "Fix `active` in state.md." },
      );
    const path = normaliseActivePath(active);
    const playbook = deps.readPlaybook(root, path);
    if (!playbook)
      throw new PlaybookError(
        "E_CONFIG",
        `${path} (active in state.md) does not exist.`,
        { hint: "Fix `active` in state.md." },
      );
    const branch = archiveBranch(
      path,
      playbook.meta.branch,
      state.playbook.branch,
    );
    // Asked now, answered while the work is committed and pushed; the open-pr step takes it (only a person could
    // open a pull request for this branch meanwhile, and then opening a second one is refused by GitHub).
    const pulls = github
      ? early(
          defaultBranch
            .get()
            .then((base) => github.pullRequestsFor(branch, base)),
        )
      : null;
    const records = await meter.check("readiness", async () => {
      assertLintClean(path, playbook);
      const records = deps.readRecords(root, path);
      assertFinished(
        path,
        findMissingProof(path, playbook, records, await fingerprint.result),
      );
      return records;
    });
    const base = await defaultBranch.get();
    assertMergeable(path, branch, base);
    const date = toIsoTime(deps.now()).slice(0, 10);
    const archivePath = archivePathFor(
      path,
      (p) => existsSync(join(root, p)),
      date,
    );
    const { title, body } = renderPullRequest(
      path,
      archivePath,
      playbook,
      records,
    );
    return {
      journal: {
        version: 1,
        id: deps.newId(),
        playbook: path,
        archivePath,
        branch,
        defaultBranch: base,
        provider,
        title,
        body,
        session: options.session,
        startedAt: toIsoTime(deps.now()),
        status: "running",
        pr: null,
        steps: {},
        next: null,
        pending: null,
      },
      // A failed early answer is asked again by the step, which then reports its error.
      pulls: pulls?.get().catch(() => null) ?? null,
    };
  } finally {
    fingerprint.cancel();
  }
}
