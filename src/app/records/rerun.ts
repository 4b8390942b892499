import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGitSync } from "../../adapters/git-runner.ts";
import { readRecords, writeRecord } from "../../adapters/record-store.ts";
import { summarizePlaybook } from "../../core/cache/summary.ts";
import { InterruptedError, PlaybookError } from "../../core/errors.ts";
import {
  VALIDATION_NAMES,
  type ValidationName,
} from "../../core/model/playbook.ts";
import { parsePlaybook } from "../../core/parse/parse-playbook.ts";
import { findMissingProof } from "../../core/records/completion.ts";
import { treeMismatch } from "../../core/records/proof-state.ts";
import { createRecordSet } from "../../core/records/record-set.ts";
import type { RecordSet } from "../../core/records/record.ts";
import {
  toProofModel,
  type ProofModel,
} from "../../core/records/proof-model.ts";
import type { PlaybookSummary } from "../../core/model/summary.ts";
import { commandOf } from "../../core/records/validation-command.ts";
import {
  isolate,
  readTreeOrThrow,
  runDetail,
  type VerifyDeps,
} from "./verify.ts";
import { runLint } from "../lint/lint.ts";
import { findChangesForAPerson } from "../../core/records/changes-for-a-person.ts";
import { makeCleanCheckout, type CleanCheckout } from "./clean-checkout.ts";
import { readDocumentText } from "../../adapters/read-document.ts";

export interface RerunOptions {
  /** `--playbook`: these playbooks only. */
  playbooks?: readonly string[] | undefined;
  /** `--base <ref>`: the playbooks added or changed since the merge base with `ref` (a pull request's). */
  base?: string | undefined;
  /**
   * `--at <rev>`: run the validations in a clean checkout of `rev` (the archive's final gate: what it is about to push),
   * not in the working tree, so files git ignores and uncommitted files cannot make them pass.
   */
  at?: string | undefined;
  /**
   * With `at`, the archive's final gate: the validations prove the commit now, so evidence of an earlier tree does not
   * count against it, and each validation that passes gets fresh evidence of the commit's tree. Fails only where a
   * validation fails, has no evidence, or its evidence judged another version of the subtask.
   */
  record?: boolean | undefined;
  /**
   * `--pr <dir>`: CI's mode (docs/ci.md). The pull request's tree checked out at `dir` is only data: its playbooks,
   * records and code are read and its validations run there, in the sandbox, with the configuration of `root` (the
   * base branch's checkout, where this playbook was installed from). Needs `base`.
   */
  pr?: string | undefined;
  timeoutMs: number;
  /**
   * All the validations together may take this long (the hook's archive, bound by the hook's time); each then runs
   * at most what is left, and those left over fail as not run. Unbounded when absent.
   */
  budgetMs?: number | undefined;
  /** Told each row as its validation finishes (the archive's final gate shows its progress with it). */
  onRow?: ((row: RerunRow) => void) | undefined;
  /** How long `git diff` against `base` may take. */
  gitTimeoutMs?: number;
  /** Ctrl-C or SIGTERM (adapters/interrupt.ts): ends the running validation and stops the rerun. */
  signal?: AbortSignal | undefined;
}

/** One automated (or hybrid) validation of a checked subtask, run again and compared with its evidence. */
export interface RerunRow {
  playbook: string;
  subtask: string;
  validation: ValidationName;
  command: string;
  /** The evidence's verdict, or null without evidence. */
  evidence: "PASS" | "FAIL" | null;
  rerun: "PASS" | "FAIL";
  exitCode: number | null;
  /** The last lines the command printed (empty when it did not run). */
  outputTail: string[];
  /** Why the rerun disagrees with the evidence, or null when both say PASS for this code. */
  problem: string | null;
}

export interface RerunReport {
  playbooks: string[];
  tree: string | null;
  sandbox: { sandboxed: true } | { sandboxed: false; why: string };
  rows: RerunRow[];
  /**
   * The final gate's (`at` with `record`): what keeps the committed playbooks from being finished as the reviewer
   * approved them, besides the validations run here (`findMissingProof` without the tree). Empty otherwise.
   */
  unproven: string[];
  /** Whether `budgetMs` ran out before every validation had run to its end. */
  outOfTime: boolean;
  /** With `pr`: the changed paths CI does not judge, which a person must review (empty otherwise). */
  forAPerson: string[];
  ok: boolean;
  /** Per playbook covered, what its records prove and what the re-run found (the job summary's table). */
  proof: ProofModel[];
}

/**
 * `playbook check --rerun` (docs/guards.md): runs every automated and hybrid validation of each checked subtask
 * again, in the sandbox `playbook verify` uses, and compares it with the evidence: the evidence must exist, judge the
 * subtask as written, prove the working tree as it is, and say PASS, and the rerun must pass too. Writes nothing:
 * it is for CI and the archive, which trust no record they did not see made.
 *
 * @throws PlaybookError E_CONFIG in strict mode without a sandbox, E_NOT_FOUND for a `--playbook` that is missing.
 */
export async function runRerun(
  root: string,
  options: RerunOptions,
  deps: VerifyDeps,
): Promise<RerunReport> {
  if (options.pr !== undefined) {
    if (options.base === undefined || options.at !== undefined)
      throw new PlaybookError(
        "E_USAGE",
        "--pr needs --base and cannot be combined with --at.",
        {
          hint: "Run `playbook check --rerun --pr <dir> --base <base commit>`, as the workflow of `playbook init --ci github` does.",
        },
      );
    const report = await rerunIn(
      options.pr,
      options.pr,
      options,
      deps,
      null,
      root,
    );
    const forAPerson = findChangesForAPerson(
      changedPaths(options.pr, options.base, [], options.gitTimeoutMs),
    );
    return { ...report, forAPerson, ok: report.ok && forAPerson.length === 0 };
  }
  const checkout = options.at ? makeCleanCheckout(root, options.at) : null;
  try {
    return await rerunIn(
      checkout?.dir ?? root,
      root,
      options,
      deps,
      checkout,
      root,
    );
  } finally {
    checkout?.remove();
  }
}

/**
 * The rerun with the commands run (and the tree read) in `runRoot`, the records read from the project at `root`, the
 * configuration (the security mode, the sandbox's allowances) from `configRoot`.
 */
async function rerunIn(
  runRoot: string,
  root: string,
  options: RerunOptions,
  deps: VerifyDeps,
  checkout: CleanCheckout | null,
  configRoot: string,
): Promise<RerunReport> {
  const commit = checkout?.commit ?? null;
  const playbooks = choosePlaybooks(root, options);
  const planned: (Omit<
    RerunRow,
    "rerun" | "exitCode" | "outputTail" | "problem"
  > & {
    stale: string | null;
    proved: Parameters<typeof treeMismatch>[0] | null;
    filedAs: string;
    hash: string | null;
  })[] = [];
  const gate = options.at !== undefined && options.record === true;
  const books: {
    path: string;
    filedAs: string;
    summary: PlaybookSummary;
    records: RecordSet;
  }[] = [];
  const unproven: string[] = [];
  for (const path of playbooks) {
    const text = readDocumentText(join(runRoot, path), "playbook", path);
    const parsed = parsePlaybook(text, path);
    const summary = summarizePlaybook(parsed.value, []);
    const filedAs = recordPathOf(path);
    const records = createRecordSet(readRecords(root, filedAs));
    books.push({ path, filedAs, summary, records });
    // The gate stands in for the tree-current evidence readiness no longer asks for, and `--resume` skips readiness:
    // the commit's playbook must itself be finished, with the reviewer's approval of it as it is. A validation
    // rewritten, a box unticked or a subtask removed after approval fails here, not only in the working tree.
    if (gate)
      unproven.push(
        ...findMissingProof(filedAs, summary, records)
          .filter((gap) => !gap.endsWith("has no current passing evidence"))
          .map((gap) => (playbooks.length > 1 ? `${path}: ${gap}` : gap)),
      );
    for (const phase of summary.phases)
      for (const subtask of phase.subtasks) {
        if (!subtask.checked) continue;
        for (const name of VALIDATION_NAMES) {
          const validation = subtask.validations[name];
          if (!validation || validation.kind === "manual") continue;
          if (validation.kind === "unspecified") continue;
          const evidence = records.latest({
            kind: "evidence",
            playbook: filedAs,
            target: subtask.id,
            validation: name,
          });
          planned.push({
            playbook: path,
            subtask: subtask.id,
            validation: name,
            command: commandOf(validation.text, validation.kind),
            evidence:
              evidence === null
                ? null
                : evidence.verdict === "PASS"
                  ? "PASS"
                  : "FAIL",
            stale:
              evidence !== null &&
              evidence.contentHash !== summary.hashes.subtasks[subtask.id]
                ? "the evidence is of an older version of the subtask"
                : null,
            proved: evidence,
            filedAs,
            hash: summary.hashes.subtasks[subtask.id] ?? null,
          });
        }
      }
  }
  const { signal } = options;
  const stopIfInterrupted = () => {
    if (signal?.aborted)
      throw new InterruptedError(
        signal.reason === "SIGTERM" ? "SIGTERM" : "SIGINT",
        `Interrupted by ${signal.reason === "SIGTERM" ? "SIGTERM" : "Ctrl-C (SIGINT)"}: the rerun was stopped${gate ? "; the validations it finished have their evidence of the commit" : ""}.`,
      );
  };
  const isolation = await isolate(runRoot, planned.length > 0, deps, {
    configRoot,
    interruptible: signal !== undefined,
    // Evidence of a re-proof must owe nothing to a cache an earlier run (code the agent wrote) could fill.
    freshCaches: true,
    // A clean checkout sits inside the project: its working tree, with every file git ignores or that is not
    // committed, is hidden from the validations (Node's lookups climb into parent folders, and a path can name it),
    // except the installed dependencies and git's folder, which the checkout's `.git` file points into.
    ...(checkout
      ? {
          hide: [root],
          allowRead: [...checkout.dependencies, join(root, ".git")],
        }
      : {}),
  });
  const rows: RerunRow[] = [];
  let outOfTime = false;
  let tree: string | null;
  try {
    tree = readTreeOrThrow(runRoot, deps).fingerprint;
    checkout?.linkDependencies();
    const until =
      options.budgetMs === undefined
        ? Number.POSITIVE_INFINITY
        : deps.now().getTime() + options.budgetMs;
    for (const { stale, proved, filedAs, hash, ...row } of planned) {
      stopIfInterrupted();
      const left = until - deps.now().getTime();
      const timeoutMs = Math.min(options.timeoutMs, left);
      const run =
        row.command === "" || left <= 0
          ? null
          : await deps.run(
              isolation.sandboxed
                ? await isolation.wrap(row.command)
                : row.command,
              { cwd: runRoot, timeoutMs, signal },
            );
      if (isolation.sandboxed) isolation.cleanup();
      stopIfInterrupted();
      const cut =
        left <= 0 || (run?.timedOut === true && timeoutMs < options.timeoutMs);
      if (cut) outOfTime = true;
      const rerun =
        run && run.exitCode === 0 && !run.timedOut ? "PASS" : "FAIL";
      // The final gate proves the commit itself: evidence of an earlier tree is what it replaces.
      const code = proved && !gate ? treeMismatch(proved, tree) : null;
      const problem = cut
        ? `${left <= 0 ? "not run" : "stopped"}: the gate's time (${Math.round((options.budgetMs ?? 0) / 1000)} s) ran out`
        : row.evidence === null
          ? "no evidence"
          : (stale ??
            (code === "code"
              ? "the evidence proves other code (the code changed since verify)"
              : code === "untied"
                ? "the evidence names no code it proved"
                : row.evidence !== rerun && !(gate && rerun === "FAIL")
                  ? `the evidence says ${row.evidence}, the rerun ${rerun}s`
                  : rerun === "FAIL"
                    ? "the validation fails"
                    : null));
      const done = {
        ...row,
        rerun,
        exitCode: run?.exitCode ?? null,
        outputTail: run?.outputTail ?? [],
        problem,
      } satisfies RerunRow;
      rows.push(done);
      options.onRow?.(done);
      if (gate && problem === null && run !== null && hash !== null)
        writeRecord(root, {
          kind: "evidence",
          playbook: filedAs,
          target: row.subtask,
          validation: row.validation,
          contentHash: hash,
          verdict: "PASS",
          by: "playbook-reprove",
          at: deps.now().toISOString(),
          detail: {
            command: row.command,
            ...runDetail(run),
            sandboxed: isolation.sandboxed,
            tree,
            commit,
          },
        });
    }
  } finally {
    if (isolation.sandboxed) await isolation.close();
  }
  return {
    playbooks,
    tree,
    sandbox: isolation.sandboxed
      ? { sandboxed: true }
      : { sandboxed: false, why: isolation.why },
    rows,
    unproven,
    outOfTime,
    forAPerson: [],
    ok: unproven.length === 0 && rows.every((r) => r.problem === null),
    proof: books.map((book) =>
      toProofModel({
        path: book.filedAs,
        file: book.path,
        playbook: book.summary,
        // The final gate wrote fresh evidence of the commit: the table shows it.
        records: gate
          ? createRecordSet(readRecords(root, book.filedAs))
          : book.records,
        tree,
        rerun: rows.filter((r) => r.playbook === book.path),
      }),
    ),
  };
}

/** The playbooks a rerun covers: those named, those a branch changed since `base`, else the active and open ones. */
function choosePlaybooks(root: string, options: RerunOptions): string[] {
  if (options.playbooks && options.playbooks.length > 0) {
    for (const path of options.playbooks)
      if (!existsSync(join(root, path)))
        throw new PlaybookError("E_NOT_FOUND", `${path} does not exist.`, {
          hint: "Pass the playbook's path relative to the project root, e.g. --playbook plan/playbook-<name>.md.",
        });
    return [...options.playbooks];
  }
  if (options.base !== undefined)
    return changedPaths(root, options.base, ["plan/"], options.gitTimeoutMs)
      .filter((p) => /^plan\/(archive\/)?playbook-[^/]*\.md$/.test(p))
      .filter((p) => existsSync(join(root, p)));
  return runLint(root).playbooks.map((p) => p.file);
}

/** The paths added, changed or renamed (`AMR`; with `D`, deleted too) on HEAD since its merge base with `base`. */
function changedPaths(
  root: string,
  base: string,
  under: readonly string[],
  timeoutMs = 60_000,
): string[] {
  const diff = runGitSync({
    cwd: root,
    args: [
      "diff",
      "--name-only",
      "--no-ext-diff",
      "--no-renames",
      ...(under.length > 0 ? ["--diff-filter=AMR"] : []),
      `${base}...HEAD`,
      "--",
      ...under,
    ],
    purpose: "read",
    timeoutMs,
  });
  if (diff.status !== 0)
    throw new PlaybookError(
      "E_CONFIG",
      `git cannot compare with --base ${base}: ${diff.stderr.trim().split("\n")[0] ?? ""}`,
      {
        hint: "Fetch the base branch first (in CI: actions/checkout with fetch-depth: 0), or name it as git knows it, e.g. origin/main.",
      },
    );
  return diff.stdout.split("\n").filter((p) => p !== "");
}

/**
 * Where the records of a playbook are filed: under the path it had while it was worked on, so an archived
 * `plan/archive/playbook-x.2026-11-25-1.md` reads those of `plan/playbook-x.md`.
 */
function recordPathOf(path: string): string {
  const archived =
    /^plan\/archive\/(playbook-.+?)(?:\.\d{4}-\d{2}-\d{2}(?:-\d+)?)?\.md$/.exec(
      path,
    );
  return archived ? `plan/${archived[1]}.md` : path;
}
