import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createToolchainFolders } from "../../../adapters/toolchain-folders.ts";
import { findFailOpenEvents } from "../../../core/scaffold/hook-settings.ts";
import { join } from "node:path";
import { isFileOnBranch } from "../../../adapters/git-facts.ts";
import {
  clearPostLoopLock,
  RUNTIME_DIR,
  writeFailOpen,
} from "../../../adapters/runtime-files.ts";
import {
  pruneSessionFiles,
  readCompactSnapshot,
  readSessionState,
  writeSessionState,
} from "../../../adapters/session-store.ts";
import type { PlaybookConfig } from "../../../core/config/config.ts";
import type { SecurityMode } from "../../../core/model/state.ts";
import { missingSandboxTools } from "../../../adapters/sandbox-tools.ts";
import { findIncoherence } from "../../../core/guards/coherence.ts";
import type { GuardContext } from "../../../core/guards/types.ts";
import { toCompactSnapshot } from "../../../core/session/compact-snapshot.ts";
import { playbookProgress } from "../../../core/session/playbook-progress.ts";
import {
  emptySessionState,
  isSessionGone,
} from "../../../core/session/session-state.ts";
import {
  renderSessionSummary,
  type SessionSummaryInput,
} from "../../../core/session/session-summary.ts";
import { toIsoTime } from "../../../core/time/iso-time.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../../../core/validate/active-path.ts";
import type { HookAnswer } from "../../../hooks/reply.ts";
import { describeShellReadOnly } from "../../../core/paths/shell-read-only.ts";
import { markReloadPending } from "../../../adapters/local-boundary-store.ts";
import {
  localBoundaryFacts,
  syncLocalBoundaryFiles,
  type ApplyLocalBoundary,
  waitForSettingsReload,
} from "../../workspace/sync-local-boundary.ts";
import {
  writeSessionStamp,
  writeStateEdit,
  type SetStateField,
} from "../../workspace/write-state-field.ts";

export interface SessionStartDeps {
  now: () => Date;
  setStateField: () => SetStateField;
  config: PlaybookConfig;
  configProblems: string[];
  /** Absent: the sandbox's derived lists are not kept (a caller without the settings editor). */
  applyLocalBoundary?: ApplyLocalBoundary | undefined;
}

/** Session files untouched this long are removed at a fresh start. */
const PRUNE_AFTER_DAYS = 14;

/**
 * SessionStart (docs/sessions.md): remembers the session, clears a post-loop lock whose session is gone, stamps
 * `session.last_start`, repairs an `active` that names a missing playbook (with a backup), and injects a short
 * summary — after compaction, the snapshot PreCompact saved. Never blocks and never throws for a broken workspace:
 * problems become lines of the summary.
 */
export function runSessionStart(
  ctx: GuardContext,
  source: string,
  deps: SessionStartDeps,
): HookAnswer {
  const now = deps.now();
  const at = toIsoTime(now);
  const sessionId = ctx.sessionId;
  const problems: string[] = [...deps.configProblems];
  const notices: string[] = [];
  if (sessionId) rememberStart(ctx.projectDir, sessionId, source, at);
  const lockCleared = clearLockOfGoneSession(ctx, now, deps.config);
  if (source === "startup" || source === "clear") {
    pruneSessionFiles(ctx.projectDir, PRUNE_AFTER_DAYS, now);
    createToolchainFolders(ctx.projectDir);
  }
  // Repair first, so the backup holds exactly what the user had.
  const repaired = repairMissingActive(ctx, deps.setStateField, at);
  if (repaired) problems.push(repaired);
  if (ctx.state && source !== "compact") {
    const problem = writeSessionStamp(
      ctx.projectDir,
      ctx.state,
      "last_start",
      at,
      deps.setStateField,
    );
    if (problem)
      problems.push(`session.last_start was not written: ${problem}`);
  }
  // The coherence guard is the one place that knows where state.md, the playbook and git disagree.
  problems.push(
    ...findIncoherence(ctx).filter(
      (p) => !(repaired && p === ctx.activeProblem),
    ),
  );
  const input: SessionSummaryInput = {
    source,
    playbook: repaired ? null : playbookProgress(ctx),
    gitBranch: ctx.git.branch,
    lock: lockCleared ? null : ctx.lock,
    lockCleared,
    problems,
    snapshot:
      source === "compact" && sessionId
        ? snapshotOf(ctx.projectDir, sessionId)
        : null,
  };
  if (lockCleared) notices.push(lockCleared);
  if (deps.applyLocalBoundary)
    problems.push(
      ...syncBoundaryAtStart(
        ctx,
        lockCleared === null,
        deps.applyLocalBoundary,
      ),
    );
  const weaker = describeWeakerBoundary(deps.config.security);
  if (weaker) {
    notices.push(weaker);
    problems.push(weaker);
  }
  const failOpen = checkFailOpen(ctx.projectDir);
  if (failOpen) {
    notices.push(failOpen);
    problems.push(failOpen);
  }
  return {
    block: null,
    context: deps.config.context.sessionStart
      ? [renderSessionSummary(input, deps.config.context.maxBytes)]
      : [],
    notice: notices.length > 0 ? `playbook: ${notices.join(" ")}` : null,
  };
}

/**
 * The protected files and the read-only project, in settings.local.json before the session's first command
 * (docs/trust-boundary.md). What the sandbox cannot hold is said, with what to do.
 */
function syncBoundaryAtStart(
  ctx: GuardContext,
  locked: boolean,
  apply: ApplyLocalBoundary,
): string[] {
  try {
    const sync = syncLocalBoundaryFiles(
      ctx.projectDir,
      { ...localBoundaryFacts(ctx), lock: locked && ctx.lock !== null },
      "settings",
      apply,
    );
    if (sync.changed) {
      if (ctx.sessionId) markReloadPending(ctx.projectDir, ctx.sessionId);
      waitForSettingsReload();
    }
    const readOnly = describeShellReadOnly(sync.readOnly);
    return [
      ...(readOnly ? [readOnly] : []),
      ...(sync.problem ? [sync.problem] : []),
      ...sync.unheld.map((u) => `${u.rule.source}: ${u.why}. Next: ${u.next}`),
    ];
  } catch (error) {
    return [
      `the sandbox's protected paths could not be written to .claude/settings.local.json (${error instanceof Error ? error.message : String(error)}).`,
    ];
  }
}

/**
 * Said loudly at every session start (docs/trust-boundary.md): what a weaker security mode, or a machine where the
 * sandbox cannot run, leaves unenforced. Strict needs no words: Claude Code refuses to start without its sandbox.
 */
function describeWeakerBoundary(mode: SecurityMode): string | null {
  if (mode === "strict") return null;
  const missing = missingSandboxTools(process.platform, process.env["PATH"]);
  const what =
    mode === "developer"
      ? "only HARD_BLOCK files and the records rules are enforced"
      : "BLOCK-level protected files are open to the agent";
  return `security is ${mode}: ${what}.${missing.length > 0 ? ` The sandbox cannot run here (missing: ${missing.join(", ")}), so nothing stops the agent's shell from writing the records.` : ""} The user can set "security": "strict" in .claude/playbook.json.`;
}

/**
 * Settings that run playbook's PreToolUse hook without `"onFailure": "block"` let a call through when the hook crashes
 * or times out, which an agent can provoke. Until `playbook init` upgrades them, the tool hook refuses every call that
 * changes something (docs/trust-boundary.md); the marker is how it knows.
 */
function checkFailOpen(projectDir: string): string | null {
  let settings: unknown;
  try {
    settings = JSON.parse(
      readFileSync(join(projectDir, ".claude", "settings.json"), "utf8"),
    );
  } catch {
    settings = null;
  }
  const events = findFailOpenEvents(settings, []);
  const reason =
    events.length === 0
      ? null
      : `.claude/settings.json runs playbook's ${events.join(", ")} hook without "onFailure": "block", so a hook that crashes or times out would let a tool call through unchecked; playbook refuses every change until the user runs \`npx --no playbook init\` to upgrade the settings.`;
  try {
    writeFailOpen(projectDir, reason);
  } catch {
    // A read-only checkout: the notice still says it.
  }
  return reason;
}

function rememberStart(
  projectDir: string,
  sessionId: string,
  source: string,
  at: string,
): void {
  const previous = readSessionState(projectDir, sessionId);
  const fresh = source === "startup" || source === "clear" || previous === null;
  const state = fresh ? emptySessionState() : previous;
  try {
    writeSessionState(projectDir, sessionId, {
      ...state,
      started: fresh ? at : (state.started ?? at),
      source,
      lastSeen: at,
      ended: null,
      endReason: null,
    });
  } catch {
    // A read-only checkout still gets its summary; liveness only helps clear stale locks.
  }
}

/**
 * A post-loop lock left by a session that ended, crashed or went silent would otherwise block every later session
 * (the predecessor's worst deadlock). The lock of a live session stays: that session is still picking its next task.
 */
function clearLockOfGoneSession(
  ctx: GuardContext,
  now: Date,
  config: PlaybookConfig,
): string | null {
  const lock = ctx.lock;
  if (!lock || lock.session === ctx.sessionId) return null;
  const stale = config.session.staleAfterMinutes;
  const gone =
    lock.session === null
      ? isSessionGone(null, now, stale) && olderThan(lock.at, now, stale)
      : isSessionGone(
          readSessionState(ctx.projectDir, lock.session),
          now,
          stale,
        );
  if (!gone) return null;
  const what = `${lock.playbook ?? "the last playbook"} (archived${lock.pr ? `, PR ${lock.pr}` : ""}, status ${lock.status})`;
  try {
    clearPostLoopLock(
      ctx.projectDir,
      `session ${lock.session ?? "unknown"} is gone`,
      toIsoTime(now),
    );
  } catch (error) {
    return `The post-loop lock of ${what} belongs to a session that is gone but could not be cleared (${error instanceof Error ? error.message : String(error)}); run \`playbook post-loop\`.`;
  }
  return `The post-loop lock of ${what} was cleared: the session that set it is gone. Pick the next task with Skill(playbook-init)${lock.status === "partial" ? "; the archive was partial, so run `playbook archive --resume` first" : ""}${lock.pending ? `; its merge is pending: ${lock.pending.what} (then: ${lock.pending.next})` : ""}.`;
}

function olderThan(at: string | null, now: Date, minutes: number): boolean {
  const time = Date.parse(at ?? "");
  return Number.isNaN(time) || now.getTime() - time > minutes * 60_000;
}

/**
 * `active` naming a playbook that does not exist: when git has the file on the branch state.md names, the fix is to
 * switch branches; otherwise `active` is set to null (state.md backed up first) so the gate says "no playbook"
 * instead of failing on every call.
 */
function repairMissingActive(
  ctx: GuardContext,
  setStateField: () => SetStateField,
  at: string,
): string | null {
  const named = ctx.state?.playbook.active;
  if (!named || ctx.active || explainUnsafeActivePath(named) !== null)
    return null;
  const path = normaliseActivePath(named);
  if (existsSync(join(ctx.projectDir, path))) return null;
  const branch = ctx.state?.playbook.branch ?? null;
  if (
    branch &&
    branch !== ctx.git.branch &&
    isFileOnBranch(ctx.projectDir, branch, path)
  )
    return `state.md names \`${path}\` as active; it exists on branch \`${branch}\`, not on \`${ctx.git.branch ?? "this checkout"}\`. Next: \`git switch ${branch}\`.`;
  const backup = join(
    RUNTIME_DIR,
    "backups",
    `state.md.${at.replace(/[:.]/g, "-")}`,
  );
  try {
    mkdirSync(join(ctx.projectDir, RUNTIME_DIR, "backups"), {
      recursive: true,
    });
    copyFileSync(
      join(ctx.projectDir, "state.md"),
      join(ctx.projectDir, backup),
    );
  } catch (error) {
    return `state.md names \`${path}\` as active, which does not exist, and state.md could not be backed up (${error instanceof Error ? error.message : String(error)}), so it was left as it is. Next: set \`active: null\` in state.md, or restore the playbook.`;
  }
  const problem = writeStateEdit(ctx.projectDir, (text) =>
    setStateField()(text, "playbook", "active", null),
  );
  return problem
    ? `state.md names \`${path}\` as active, which does not exist, and it could not be repaired (${problem}). Next: set \`active: null\` in state.md, or restore the playbook.`
    : `state.md named \`${path}\` as active, which does not exist; \`active\` is now null (the old state.md is at ${backup}). Next: restore the playbook and set \`active\` again, or start a new one with Skill(playbook-init).`;
}

function snapshotOf(
  projectDir: string,
  sessionId: string,
): SessionSummaryInput["snapshot"] {
  const read = readCompactSnapshot(projectDir, sessionId);
  if (!read.found) return null;
  return toCompactSnapshot(read.json);
}
