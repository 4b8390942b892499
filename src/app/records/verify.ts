import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { readRecords, writeRecord } from "../../adapters/record-store.ts";
import {
  InterruptedError,
  locationAt,
  PlaybookError,
} from "../../core/errors.ts";
import {
  VALIDATION_NAMES,
  type ValidationKind,
  type ValidationName,
  type ValidationResult,
} from "../../core/model/playbook.ts";
import { subtaskHash } from "../../core/records/content-hash.ts";
import {
  createRecordSet,
  isRecordCurrent,
} from "../../core/records/record-set.ts";
import {
  approvalStep,
  unapprovedPlan,
} from "../../core/records/proof-state.ts";
import type { PlaybookRecord } from "../../core/records/record.ts";
import { commandOf } from "../../core/records/validation-command.ts";
import type { TreeReading } from "../../adapters/tree-fingerprint.ts";
import type { SecurityMode } from "../../core/model/state.ts";
import { changedPaths } from "../../core/records/tree-fingerprint.ts";
import {
  findSandboxRefusal,
  REFUSAL_LINE,
  type SandboxReach,
  type SandboxRefusal,
} from "../../core/records/sandbox-refusal.ts";
import { writeValidationResults } from "./record-validation-results.ts";
import { findPhaseOrThrow, findSubtaskOrThrow } from "./record-targets.ts";
import { resolvePlaybook } from "../workspace/resolve-playbook.ts";

/** What running one validation command produced. */
export interface CommandRun {
  /** null when a signal ended it or it could not start. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** `sha256:` of stdout and stderr together, as they arrived. */
  outputDigest: string;
  /** The last lines of that output. */
  outputTail: string[];
  /** Why the command could not start, else null. */
  error: string | null;
  /** Lines of its whole output that may show the sandbox refusing something (a read-only path, a name not found). */
  flagged?: string[];
}

export type RunCommand = (
  command: string,
  options: {
    cwd: string;
    timeoutMs: number;
    /** Aborted on Ctrl-C: the command's whole process group is killed at once. */
    signal?: AbortSignal | undefined;
  },
) => Promise<CommandRun>;

/**
 * For the final proof in a clean checkout: the project whose `.claude/playbook.json` decides what the validations
 * may reach (never the checkout's, which a commit could have changed), and folders linked into the checkout that
 * must stay readable where they really are (the project's dependencies).
 */
export interface IsolateOptions {
  configRoot?: string;
  allowRead?: readonly string[];
  /**
   * Whether the caller ends its commands on Ctrl-C and SIGTERM and closes the sandbox itself (it passes an
   * AbortSignal to `run`); then the sandbox's own signal handlers, which reset it while its commands still run, are
   * left out.
   */
  interruptible?: boolean;
  /** Folders the validations may not read (a clean checkout's project); `allowRead` and what they write stay readable. */
  hide?: readonly string[];
  /** Tool caches start empty instead of those kept between runs (a re-proof). */
  freshCaches?: boolean;
}

/** Where validation commands run: inside the OS sandbox, or (where none can run) as they are, and why. */
export type Isolation =
  | {
      sandboxed: true;
      wrap: (command: string) => Promise<string>;
      cleanup: () => void;
      /** What the sandbox itself saw it refuse the last wrapped command (connections to hosts not allowed). */
      refusals: () => string[];
      close: () => Promise<void>;
      warnings: string[];
      reach: SandboxReach;
    }
  | { sandboxed: false; why: string; next: string };

export interface VerifyDeps {
  now: () => Date;
  run: RunCommand;
  /** Starts the sandbox for `root` (adapters/sandbox.ts), or says why none can run. */
  isolate: (root: string, options?: IsolateOptions) => Promise<Isolation>;
  /** The working tree's fingerprint (adapters/tree-fingerprint.ts). */
  readTree: (root: string) => TreeReading;
  /** The security mode, which decides whether validations may run without a sandbox. */
  securityMode: (root: string) => SecurityMode;
}

export interface VerifyOptions {
  subtask: string;
  /** `--playbook`; state.md's `active` when absent. */
  playbook?: string | undefined;
  timeoutMs: number;
  /** Ctrl-C or SIGTERM (adapters/interrupt.ts): ends the running command and records nothing. */
  signal?: AbortSignal | undefined;
  /** Told when the validations start and as each one finishes, so the CLI can show them as they come. */
  onProgress?: ((event: VerifyProgress) => void) | undefined;
}

/** What `runVerify` reports while it runs, in order: one `start`, then one `result` per validation as it finishes. */
export type VerifyProgress =
  | {
      kind: "start";
      playbook: string;
      subtask: string;
      criterion: string;
      /** How many validations will run. */
      planned: number;
      sandbox: VerifyReport["sandbox"];
    }
  | { kind: "result"; subtask: string; result: VerifyResult };

export interface VerifyResult {
  validation: ValidationName;
  kind: ValidationKind;
  command: string;
  verdict: ValidationResult;
  run: CommandRun;
  /** For a failed command: what the sandbox refused it, and the setting that allows it, when that shows. */
  refusal: SandboxRefusal | null;
}

export interface VerifyReport {
  playbook: string;
  subtask: string;
  criterion: string;
  results: VerifyResult[];
  /** Validations a person must confirm (`manual` and `hybrid`). */
  manual: ValidationName[];
  /** Whether a person's current PASS confirmation of this subtask is on record. */
  confirmed: boolean;
  /** Validations without a kind: nothing can prove them until the plan says how. */
  unspecified: ValidationName[];
  /** Whether the results changed the playbook's text. */
  playbookChanged: boolean;
  /** Whether the commands ran in the sandbox; why not, when they did not. */
  sandbox:
    | { sandboxed: true; warnings: string[] }
    | { sandboxed: false; why: string; next: string };
  /** The tree fingerprint the evidence records (null outside git). */
  tree: string | null;
  /** Files the validations themselves changed: the evidence proves the tree before them. */
  changedByRun: string[];
}

const TAIL_LINES = 20;
const TAIL_BYTES = 64 * 1024;
const KILL_GRACE_MS = 2_000;
const MAX_FLAGGED = 20;

/**
 * `playbook verify <subtask>` (docs/guards.md): runs the command of each automated and hybrid validation with the system
 * shell in the project root, stores an evidence record per validation (PASS when it exits 0), and writes the
 * results into the playbook. Anyone may run it: the proof is that playbook ran the command, not who asked.
 *
 * @throws PlaybookError E_NOT_FOUND for an unknown subtask, E_CONFIG for a validation without a command.
 */
export async function runVerify(
  root: string,
  options: VerifyOptions,
  deps: VerifyDeps,
): Promise<VerifyReport> {
  const resolved = resolvePlaybook(root, options.playbook);
  const subtask = findSubtaskOrThrow(resolved, options.subtask);
  const hash = subtaskHash(resolved.summary, subtask.id);
  // The summary maps the AST `findSubtaskOrThrow` found the subtask in.
  if (hash === null)
    throw new Error(`the summary of ${resolved.path} lacks ${subtask.id}`);
  const unapproved = unapprovedPlan(
    resolved.path,
    resolved.summary,
    createRecordSet(readRecords(root, resolved.path)),
  );
  if (unapproved !== null)
    throw new PlaybookError(
      "E_CONFIG",
      `verify proves only the plan as the reviewer approved it, and in ${resolved.path} ${unapproved}. Nothing was run or recorded.`,
      {
        hint: `${capitalize(approvalStep(resolved.path))}, then run \`playbook verify ${subtask.id}\` again.`,
      },
    );
  const planned: {
    name: ValidationName;
    kind: ValidationKind;
    command: string;
  }[] = [];
  const manual: ValidationName[] = [];
  const unspecified: ValidationName[] = [];
  for (const name of VALIDATION_NAMES) {
    const validation = subtask.validations[name];
    if (!validation || validation.kind === "unspecified") {
      unspecified.push(name);
      continue;
    }
    if (validation.kind !== "automated") manual.push(name);
    if (validation.kind === "manual") continue;
    const command = commandOf(validation.text, validation.kind);
    if (command === "")
      throw new PlaybookError(
        "E_CONFIG",
        `The ${name} validation of \`${subtask.id}\` in ${resolved.path} is ${validation.kind} but names no command.`,
        {
          hint: `Write the command after the kind, e.g. \`${name}: "automated - npx tsc --noEmit"\`. Nothing was run.`,
          location: locationAt(resolved.path, validation.span.start),
        },
      );
    planned.push({ name, kind: validation.kind, command });
  }

  const { signal, onProgress } = options;
  const stopIfInterrupted = () => {
    if (signal?.aborted)
      throw new InterruptedError(
        signal.reason === "SIGTERM" ? "SIGTERM" : "SIGINT",
        `Interrupted by ${signal.reason === "SIGTERM" ? "SIGTERM" : "Ctrl-C (SIGINT)"}: the validations of ${subtask.id} were stopped and none was recorded.`,
      );
  };
  stopIfInterrupted();
  const isolation = await isolate(root, planned.length > 0, deps, {
    interruptible: signal !== undefined,
  });
  const results: VerifyResult[] = [];
  // Written only once every validation ran: an interrupted verify leaves no partial proof behind.
  const evidence: PlaybookRecord[] = [];
  let before: TreeReading;
  let after: TreeReading;
  try {
    stopIfInterrupted();
    before = readTreeOrThrow(root, deps);
    onProgress?.({
      kind: "start",
      playbook: resolved.path,
      subtask: subtask.id,
      criterion: subtask.criterion,
      planned: planned.length,
      sandbox: sandboxOf(isolation),
    });
    for (const { name, kind, command } of planned) {
      const wrapped = isolation.sandboxed
        ? await isolation.wrap(command)
        : command;
      stopIfInterrupted();
      const run = await deps.run(wrapped, {
        cwd: root,
        timeoutMs: options.timeoutMs,
        signal,
      });
      if (signal?.aborted) {
        if (isolation.sandboxed) isolation.cleanup();
        stopIfInterrupted();
      }
      const verdict: ValidationResult =
        run.exitCode === 0 && !run.timedOut ? "PASS" : "FAIL";
      const refusal =
        verdict === "FAIL" && isolation.sandboxed
          ? findSandboxRefusal({
              lines: run.flagged ?? [],
              violations: isolation.refusals(),
              reach: isolation.reach,
            })
          : null;
      if (isolation.sandboxed) isolation.cleanup();
      evidence.push({
        kind: "evidence",
        playbook: resolved.path,
        target: subtask.id,
        validation: name,
        contentHash: hash,
        verdict,
        by: "playbook-verify",
        at: deps.now().toISOString(),
        detail: {
          command,
          ...runDetail(run),
          sandboxed: isolation.sandboxed,
          tree: before.fingerprint,
        },
      });
      const result = { validation: name, kind, command, verdict, run, refusal };
      results.push(result);
      onProgress?.({ kind: "result", subtask: subtask.id, result });
    }
    after = planned.length > 0 ? readTreeOrThrow(root, deps) : before;
    stopIfInterrupted();
  } finally {
    if (isolation.sandboxed) await isolation.close();
  }
  for (const record of evidence) writeRecord(root, record);

  // A hybrid validation passes only when its command passed and a person confirmed the rest.
  const confirmation = readRecords(root, resolved.path, [
    { kind: "confirmation", playbook: resolved.path, target: subtask.id },
  ])[0];
  const confirmed = isConfirmed(confirmation, hash);
  const written: Partial<Record<ValidationName, ValidationResult | null>> = {};
  for (const result of results)
    written[result.validation] =
      result.verdict === "FAIL" || result.kind === "automated" || confirmed
        ? result.verdict
        : null;
  const { changed } = writeValidationResults(
    resolved,
    subtask.id,
    hash,
    written,
    deps.now().toISOString(),
  );
  return {
    playbook: resolved.path,
    subtask: subtask.id,
    criterion: subtask.criterion,
    results,
    manual,
    confirmed,
    unspecified,
    playbookChanged: changed,
    sandbox: sandboxOf(isolation),
    tree: before.fingerprint,
    changedByRun:
      before.fingerprint === after.fingerprint
        ? []
        : changedPaths(before.entries, after.entries),
  };
}

function sandboxOf(isolation: Isolation): VerifyReport["sandbox"] {
  return isolation.sandboxed
    ? { sandboxed: true, warnings: isolation.warnings }
    : { sandboxed: false, why: isolation.why, next: isolation.next };
}

/** What an evidence record keeps of a command's run. */
export function runDetail(run: CommandRun): Record<string, unknown> {
  return {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    outputDigest: run.outputDigest,
    outputTail: run.outputTail,
    ...(run.error !== null ? { error: run.error } : {}),
  };
}

/**
 * The sandbox the commands run in. Where none can run, `strict` refuses before anything runs; the weaker modes run
 * the commands as they are, and the report and the evidence say so.
 *
 * @throws PlaybookError E_CONFIG in strict mode without a sandbox.
 */
export async function isolate(
  root: string,
  needed: boolean,
  deps: Pick<VerifyDeps, "isolate" | "securityMode">,
  options: IsolateOptions = {},
): Promise<Isolation> {
  if (!needed) return { sandboxed: false, why: "nothing to run", next: "" };
  const isolation = await deps.isolate(root, options);
  if (isolation.sandboxed) return isolation;
  const mode = deps.securityMode(options.configRoot ?? root);
  if (mode === "strict")
    throw new PlaybookError(
      "E_CONFIG",
      `Validations run in a sandbox, and none can run here: ${isolation.why}. Nothing was run.`,
      {
        hint: `Install what it needs: ${isolation.next}. Then run the command again. (Only the user may allow unsandboxed validations, with a weaker \`security\` in .claude/playbook.json.)`,
      },
    );
  return isolation;
}

export function readTreeOrThrow(
  root: string,
  deps: Pick<VerifyDeps, "readTree">,
): TreeReading {
  try {
    return deps.readTree(root);
  } catch (cause) {
    throw new PlaybookError(
      "E_CONFIG",
      `git could not read the working tree, so no evidence can name the code it proves (${cause instanceof Error ? cause.message : String(cause)}).`,
      {
        hint: "Fix what git says (`git status` shows the same: a garbled .git/HEAD, a broken index), then run the command again. Nothing was recorded.",
        cause,
      },
    );
  }
}

function isConfirmed(
  record: PlaybookRecord | undefined,
  hash: string,
): boolean {
  return (
    record !== undefined &&
    record.verdict === "PASS" &&
    isRecordCurrent(record, hash)
  );
}

/**
 * Runs `command` with the system shell in `cwd`, stdin closed, and collects a digest and the tail of its output
 * (bounded memory, whatever it prints). On timeout the whole process group gets SIGTERM, then SIGKILL, so a
 * command the shell started cannot outlive the limit. When `signal` aborts (Ctrl-C), the group gets SIGKILL at
 * once: bubblewrap's own processes are in it, and with them dies everything in the sandbox (`--die-with-parent`
 * kills its PID namespace).
 */
export function runShellCommand(
  command: string,
  options: { cwd: string; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<CommandRun> {
  return new Promise((resolvePromise) => {
    const started = performance.now();
    const digest = createHash("sha256");
    let tail = Buffer.alloc(0);
    const flagged: string[] = [];
    // Per stream, so that a line of stdout and one of stderr are never read as one.
    const partial = { out: "", err: "" };
    const flag = (line: string) => {
      if (flagged.length < MAX_FLAGGED && REFUSAL_LINE.test(line))
        flagged.push(line.length > 500 ? `${line.slice(0, 497)}...` : line);
    };
    let timedOut = false;
    let exited = false;
    let settled = false;
    const ownGroup = process.platform !== "win32";
    const child = spawn(command, {
      shell: true,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      detached: ownGroup,
      windowsHide: true,
    });
    const collect = (stream: "out" | "err") => (chunk: Buffer) => {
      digest.update(chunk);
      if (flagged.length < MAX_FLAGGED) {
        const lines = (partial[stream] + chunk.toString("utf8")).split(/\r?\n/);
        partial[stream] = (lines.pop() ?? "").slice(-4096);
        lines.forEach(flag);
      }
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > TAIL_BYTES)
        tail = tail.subarray(tail.length - TAIL_BYTES);
    };
    child.stdout.on("data", collect("out"));
    child.stderr.on("data", collect("err"));
    const kill = (signal: NodeJS.Signals) => {
      try {
        if (ownGroup && child.pid !== undefined)
          process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // Already gone.
      }
    };
    let forceKill: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      if (!exited) timedOut = true;
      kill("SIGTERM");
      forceKill = setTimeout(() => kill("SIGKILL"), KILL_GRACE_MS);
    }, options.timeoutMs);
    let abandon: NodeJS.Timeout | undefined;
    const interrupt = () => {
      kill("SIGKILL");
      // A process that left the group (unsandboxed, `setsid`) may keep the output pipes open: stop reading them.
      abandon = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(null, "SIGKILL", null);
      }, KILL_GRACE_MS);
    };
    if (options.signal?.aborted) interrupt();
    else options.signal?.addEventListener("abort", interrupt, { once: true });
    const finish = (
      exitCode: number | null,
      signal: string | null,
      error: string | null,
    ) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", interrupt);
      flag(partial.out);
      flag(partial.err);
      clearTimeout(timer);
      clearTimeout(forceKill);
      clearTimeout(abandon);
      resolvePromise({
        exitCode,
        signal,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        outputDigest: `sha256:${digest.digest("hex")}`,
        outputTail: lastLines(tail.toString("utf8"), TAIL_LINES),
        error,
        flagged,
      });
    };
    child.on("exit", () => {
      exited = true;
    });
    child.on("error", (error) => finish(null, null, error.message));
    child.on("close", (code, signal) => finish(code, signal, null));
  });
}

function lastLines(text: string, count: number): string[] {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines
    .slice(-count)
    .map((line) => (line.length > 500 ? `${line.slice(0, 497)}...` : line));
}

/**
 * The subtasks `playbook verify <id>` proves: the subtask itself, or every subtask of a phase, so that work on a later
 * subtask, which makes the earlier evidence stale, is proven again in one command before the phase is done.
 */
export function verifyTargets(
  root: string,
  id: string,
  playbook: string | undefined,
): string[] {
  const resolved = resolvePlaybook(root, playbook);
  const isSubtask = resolved.playbook.phases.some((p) =>
    p.subtasks.some((s) => s.id === id),
  );
  if (isSubtask || !resolved.playbook.phases.some((p) => p.id === id))
    return [id];
  return findPhaseOrThrow(resolved, id).subtasks.map((s) => s.id);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
