import { join } from "node:path";
import { startTrustedJob } from "../../../adapters/trusted-job.ts";
import {
  forgetCachedSummaries,
  readSummaryCached,
} from "../../../adapters/parse-cache.ts";
import { writeGrant } from "../../../adapters/grant-store.ts";
import { addSessionReads } from "../../../adapters/session-store.ts";
import { evaluateGuards, type Verdict } from "../../../core/guards/evaluate.ts";
import type { HookEvent } from "../../../core/guards/events.ts";
import type { Effect, GuardContext } from "../../../core/guards/types.ts";
import type { PlaybookSummary } from "../../../core/model/summary.ts";
import { isPlaybookPath, isStatePath } from "../../../core/paths/repo-path.ts";
import { findMissingProof } from "../../../core/records/completion.ts";
import { createRecordSet } from "../../../core/records/record-set.ts";
import { normaliseActivePath } from "../../../core/validate/active-path.ts";
import { readRecords } from "../../../adapters/record-store.ts";
import type { HookPayload } from "../../../hooks/payload.ts";
import type { HookAnswer } from "../../../hooks/reply.ts";
import { buildGuardContext } from "../build-guard-context.ts";
import { currentTreeFingerprintSoon } from "../../workspace/current-tree.ts";
import { mayClaimProof } from "../../../core/edit/may-claim-proof.ts";
import { readToolCall } from "../read-tool-call.ts";
import { rememberWrittenFile } from "../remember-written-file.ts";
import { readConfig } from "../../workspace/read-config.ts";
import { runToolFailure } from "./tool-failure.ts";
import { preparePayload, type HookDeps, type HookRun } from "../hook-run.ts";
import { toIsoTime } from "../../../core/time/iso-time.ts";
import { looksReadOnly } from "../../../core/bash/looks-read-only.ts";
import {
  takeReloadPending,
  touchLocalSettings,
} from "../../../adapters/local-boundary-store.ts";
import {
  describeShellReadOnly,
  isPlainBranchSwitch,
} from "../../../core/paths/shell-read-only.ts";
import {
  localBoundaryFacts,
  syncLocalBoundaryFiles,
  type ApplyLocalBoundary,
  waitForSettingsReload,
} from "../../workspace/sync-local-boundary.ts";
import type { UncommittedFiles } from "../../../adapters/uncommitted-files.ts";

/**
 * One tool event (PreToolUse, PostToolUse, PostToolUseFailure): validate the payload, run the guards
 * or the follow-up of the event, apply their effects (grants, records, remembered reads) and say what to answer.
 * Never throws for bad input: an unusable payload is answered with a notice and nothing checked.
 */
export function runToolHook(
  event: HookEvent,
  json: unknown,
  projectDir: string,
  deps: HookDeps,
): HookRun | Promise<HookRun> {
  const prepared = preparePayload(event, json);
  if (!prepared.ok) return prepared.run;
  const { payload } = prepared;
  const tool = payload.tool_name ?? null;
  const done = (answer: HookAnswer): HookRun => ({
    answer,
    projectDir,
    verdict: null,
    tool,
  });
  switch (event) {
    case "PostToolUse":
      return afterToolUse(projectDir, payload, deps).then(done);
    case "PostToolUseFailure":
      return done(
        runToolFailure(projectDir, payload, readConfig(projectDir).config),
      );
    case "PreToolUse":
      return checkToolUse(event, payload, projectDir, deps);
    default:
      return done({ block: null, context: [], notice: null });
  }
}

/**
 * PreToolUse: the twelve guards, then their effects. An edit that may claim proof starts reading the working tree's
 * fingerprint first, so git stats the files while the context is read.
 */
function checkToolUse(
  event: HookEvent,
  payload: HookPayload,
  projectDir: string,
  deps: HookDeps,
): HookRun | Promise<HookRun> {
  const soon = mayClaimProof(
    payload.tool_name ?? null,
    payload.tool_input ?? {},
  )
    ? currentTreeFingerprintSoon(projectDir, deps.treeListing)
    : null;
  const command = payload.tool_input?.["command"];
  // git walks the tree for the snapshot while the command is read and judged, unless it looks read-only.
  const listing =
    payload.tool_name === "Bash" &&
    typeof command === "string" &&
    !looksReadOnly(command)
      ? deps.startWorkListing?.(projectDir)
      : undefined;
  let wantsTree = false;
  let ctx: GuardContext;
  try {
    ctx = buildGuardContext({
      event,
      payload,
      projectDir,
      ...(deps.cliSetup === undefined ? {} : { cliSetup: deps.cliSetup }),
      ownCli: join(deps.distDir, "cli.mjs"),
      summarize: deps.summarize,
      readToolCall,
      readBashCall: deps.readBashCall,
      // The context asks for the tree only when the call claims proof: the reading started above answers it.
      ...(soon
        ? {
            readTree: () => {
              wantsTree = true;
              return null;
            },
          }
        : {}),
    });
  } catch (error) {
    soon?.cancel();
    throw error;
  }
  const boundaryNote = syncShellBoundary(ctx, deps.applyLocalBoundary);
  const run = judgeAfterTree(ctx, soon, wantsTree, payload, deps, listing);
  if (boundaryNote === null) return run;
  return run instanceof Promise
    ? run.then((r) => withContext(r, boundaryNote))
    : withContext(run, boundaryNote);
}

function judgeAfterTree(
  ctx: GuardContext,
  soon: ReturnType<typeof currentTreeFingerprintSoon> | null,
  wantsTree: boolean,
  payload: HookPayload,
  deps: HookDeps,
  listing: Promise<UncommittedFiles> | undefined,
): HookRun | Promise<HookRun> {
  if (soon === null) return judgeToolUse(ctx, payload, deps, listing);
  if (!wantsTree) {
    soon.cancel();
    return judgeToolUse(ctx, payload, deps, listing);
  }
  return soon.result.then((tree) =>
    judgeToolUse({ ...ctx, tree }, payload, deps, listing),
  );
}

/**
 * Before a shell command: the sandbox's read-only paths follow the protected files, the branch and the post-loop lock
 * (docs/trust-boundary.md). A change is written to settings.local.json and given the time Claude Code takes to reload
 * it, so this very command already runs under it. Returns what the agent should be told, or null.
 */
function syncShellBoundary(
  ctx: GuardContext,
  apply: ApplyLocalBoundary | undefined,
): string | null {
  const command = ctx.toolInput["command"];
  if (
    !apply ||
    (ctx.toolName !== "Bash" && ctx.toolName !== "PowerShell") ||
    typeof command !== "string"
  )
    return null;
  try {
    const sync = syncLocalBoundaryFiles(
      ctx.projectDir,
      {
        ...localBoundaryFacts(ctx),
        leavingDefaultBranch:
          ctx.toolName === "Bash" &&
          isPlainBranchSwitch(command, ctx.git.defaultBranch),
      },
      "record",
      apply,
    );
    if (!sync.changed) {
      // Changed at this session's start, perhaps before Claude Code watched the file: written again, once.
      if (ctx.sessionId && takeReloadPending(ctx.projectDir, ctx.sessionId)) {
        touchLocalSettings(ctx.projectDir);
        waitForSettingsReload();
      }
      return sync.problem;
    }
    waitForSettingsReload();
    return describeShellReadOnly(sync.readOnly);
  } catch (error) {
    return `playbook could not update the sandbox's read-only paths in .claude/settings.local.json (${error instanceof Error ? error.message : String(error)}).`;
  }
}

function withContext(run: HookRun, note: string): HookRun {
  return {
    ...run,
    answer: { ...run.answer, context: [...run.answer.context, note] },
  };
}

function judgeToolUse(
  ctx: GuardContext,
  payload: HookPayload,
  deps: HookDeps,
  listing: Promise<UncommittedFiles> | undefined,
): HookRun | Promise<HookRun> {
  const verdict = evaluateGuards(ctx, undefined, deps.clock, deps.checkTime);
  if (verdict.failures.length > 0) forgetCachedSummaries(ctx.projectDir);
  const command = ctx.toolInput["command"];
  // A shell command that may change files runs only once a copy of the uncommitted work is kept (app/snapshot).
  if (
    verdict.block === null &&
    deps.snapshotBeforeBash &&
    typeof command === "string" &&
    ((ctx.toolName === "Bash" && ctx.readOnlyShell !== true) ||
      ctx.toolName === "PowerShell")
  )
    return deps
      .snapshotBeforeBash({
        projectDir: ctx.projectDir,
        session: ctx.sessionId,
        command,
        security: ctx.security,
        ...(listing ? { listing } : {}),
      })
      .then((kept) => {
        if (kept.block !== null) {
          verdict.block = { guard: "snapshot", reason: kept.block };
          verdict.effects = [];
        }
        if (kept.context !== null) verdict.context.push(kept.context);
        return answerToolUse(ctx, payload, deps, verdict);
      });
  return answerToolUse(ctx, payload, deps, verdict);
}

function answerToolUse(
  ctx: GuardContext,
  payload: HookPayload,
  deps: HookDeps,
  verdict: Verdict,
): HookRun {
  let updatedInput: Record<string, unknown> | undefined;
  try {
    applyEffects(ctx, verdict.effects, deps.now);
    if (verdict.block === null)
      updatedInput = runTrustedCommands(ctx, payload, verdict.effects, deps);
  } catch (error) {
    // The verdict stands; what could not be written is said, not thrown (e.g. a read-only checkout).
    verdict.context.push(
      `playbook could not write its runtime files under .claude/playbook/ (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  return {
    answer: {
      block: verdict.block?.reason ?? null,
      context: verdict.context,
      notice: null,
      ...(updatedInput ? { updatedInput } : {}),
    },
    projectDir: ctx.projectDir,
    verdict,
    tool: payload.tool_name ?? null,
  };
}

/**
 * A proof-writing playbook command the guards let through runs here, as the hook's own job: hooks run outside the
 * agent's sandbox, so the records it writes never pass through anything the agent's shell can reach. The agent's
 * Bash call then runs a command that shows the job's output and exit code.
 */
function runTrustedCommands(
  ctx: GuardContext,
  payload: HookPayload,
  effects: readonly Effect[],
  deps: HookDeps,
): Record<string, unknown> | undefined {
  const run = effects.find((e) => e.kind === "trusted-command");
  if (!run) return undefined;
  const now = deps.now();
  // At the project the hook was started for, never where the agent's shell is: a copy of the project under
  // `scratch/` has its own git configuration and settings (docs/trust-boundary.md).
  const { display } = startTrustedJob({
    projectDir: ctx.projectDir,
    distDir: deps.distDir,
    cwd: ctx.projectDir,
    id: payload.tool_use_id ?? `job-${now.getTime().toString(36)}`,
    args: run.args,
    now,
  });
  return { ...ctx.toolInput, command: display };
}

function applyEffects(
  ctx: GuardContext,
  effects: readonly Effect[],
  now: () => Date,
): void {
  const reads: string[] = [];
  for (const effect of effects) {
    if (effect.kind === "grant")
      writeGrant(ctx.projectDir, {
        ...effect.grant,
        at: toIsoTime(now()),
      });
    else if (effect.kind === "session-read") reads.push(effect.path);
  }
  if (reads.length > 0 && ctx.sessionId)
    addSessionReads(ctx.projectDir, ctx.sessionId, reads);
}

/**
 * After a file tool's write: the file joins the active playbook's list of written files, which the archive commits.
 * After an edit of `state.md` or a playbook: refresh the parse cache (the next PreToolUse then hits it), tell the
 * model about errors the edit left, with file and line, and when the edit finished the active playbook with proof
 * for everything (docs/sessions.md), start the archive workflow, loading its bundle only then.
 */
async function afterToolUse(
  projectDir: string,
  payload: HookPayload,
  deps: HookDeps,
): Promise<HookAnswer> {
  const answer: HookAnswer = { block: null, context: [], notice: null };
  const unlisted = rememberWrittenFile(projectDir, payload, deps.summarize);
  if (unlisted !== null) answer.context.push(unlisted);
  const tool = payload.tool_name;
  const file = payload.tool_input?.["file_path"];
  if (
    (tool !== "Edit" && tool !== "Write" && tool !== "MultiEdit") ||
    typeof file !== "string"
  )
    return answer;
  const rel = relativeTo(projectDir, file);
  if (rel === null || !(isStatePath(rel) || isPlaybookPath(rel))) return answer;
  const read = readSummaryCached(
    projectDir,
    rel,
    isStatePath(rel) ? "state" : "playbook",
    deps.summarize,
  );
  if (read.status === "missing") return answer;
  const errors = read.summary.diagnostics
    .filter((d) => d.severity === "error")
    .slice(0, 5);
  if (errors.length > 0) {
    answer.context.push(
      `playbook lint after this edit: ${errors.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`).join(" | ")}`,
    );
    return answer;
  }
  if (
    read.summary.kind === "playbook" &&
    isFinishedActive(projectDir, rel, read.summary, deps)
  ) {
    const archived = await deps.archive(projectDir, payload.session_id ?? null);
    answer.context.push(
      archived.steps === null
        ? archived.headline
        : `${archived.headline} Steps: ${archived.steps}`,
    );
    answer.notice = archived.headline;
  }
  return answer;
}

/** The edited playbook is the active one, and every phase, subtask and final task is done with current proof. */
function isFinishedActive(
  projectDir: string,
  rel: string,
  playbook: PlaybookSummary,
  deps: HookDeps,
): boolean {
  const looksDone =
    playbook.phases.length > 0 &&
    playbook.phases.every(
      (p) => p.status === "done" && p.subtasks.every((s) => s.checked),
    ) &&
    playbook.finalTasks.every((t) => t.checked);
  if (!looksDone) return false;
  const state = readSummaryCached(
    projectDir,
    "state.md",
    "state",
    deps.summarize,
  );
  if (state.status === "missing" || state.summary.kind !== "state")
    return false;
  const active = state.summary.playbook.active;
  if (active === null || normaliseActivePath(active) !== rel) return false;
  return (
    findMissingProof(
      rel,
      playbook,
      createRecordSet(readRecords(projectDir, rel)),
    ).length === 0
  );
}

function relativeTo(projectDir: string, file: string): string | null {
  const root = projectDir.replace(/\\/g, "/").replace(/\/$/, "");
  const path = file.replace(/\\/g, "/");
  if (path.startsWith(`${root}/`)) return path.slice(root.length + 1);
  if (!path.startsWith("/") && !/^[A-Za-z]:/.test(path))
    return path.replace(/^\.\//, "");
  return null;
}
