import type { Summarize } from "../adapters/parse-cache.ts";
import { readSummaryCached } from "../adapters/parse-cache.ts";
import { writeGrant } from "../adapters/grant-store.ts";
import { appendBoundedLog } from "../adapters/runtime-files.ts";
import { addSessionReads } from "../adapters/session-store.ts";
import type { BashAnalysis } from "../core/bash/types.ts";
import { evaluateGuards, type Verdict } from "../core/guards/evaluate.ts";
import type { HookEvent } from "../core/guards/events.ts";
import type { Effect, GuardContext } from "../core/guards/types.ts";
import { isPlaybookPath, isStatePath } from "../core/paths/repo-path.ts";
import { parseHookPayload, type HookPayload } from "../hooks/payload.ts";
import type { HookAnswer } from "../hooks/reply.ts";
import { buildGuardContext } from "./build-guard-context.ts";
import { recordCriticVerdicts } from "./record-critic-verdicts.ts";
import { toIsoTime } from "../core/time/iso-time.ts";

export interface HookDeps {
  summarize: Summarize;
  analyzeBash: (command: string) => BashAnalysis;
  now: () => Date;
  clock: () => number;
}

export interface HookRun {
  answer: HookAnswer;
  /** The project the call was judged in, for the logs; null when the payload was unusable. */
  projectDir: string | null;
  verdict: Verdict | null;
  tool: string | null;
}

const GUARDED_EVENTS: ReadonlySet<HookEvent> = new Set([
  "PreToolUse",
  "SessionStart",
]);

/**
 * One hook call: validate the payload, build the context, run the guards of the event, apply their effects
 * (grants, records, remembered reads) and say what to answer. Never throws for bad input: an unusable payload is
 * answered with a notice and nothing checked (Claude Code wrote it, not the agent).
 */
export function runHook(
  event: HookEvent,
  json: unknown,
  envProjectDir: string | undefined,
  deps: HookDeps,
): HookRun {
  const parsed = parseHookPayload(event, json);
  if (!parsed.ok)
    return {
      answer: notice(
        `playbook hook: ${parsed.problem}; nothing was checked. Update playbook, or report it if Claude Code changed the event format.`,
      ),
      projectDir: null,
      verdict: null,
      tool: null,
    };
  const payload = parsed.payload;
  const projectDir = envProjectDir ?? payload.cwd ?? process.cwd();
  const tool = payload.tool_name ?? null;
  if (event === "SubagentStop")
    return {
      answer: recordCriticVerdicts(projectDir, payload, deps),
      projectDir,
      verdict: null,
      tool,
    };
  if (event === "PostToolUse")
    return {
      answer: afterToolUse(projectDir, payload, deps),
      projectDir,
      verdict: null,
      tool,
    };
  if (!GUARDED_EVENTS.has(event))
    return {
      answer: { block: null, context: [], notice: null },
      projectDir,
      verdict: null,
      tool,
    };
  const ctx = buildGuardContext({
    event,
    payload,
    projectDir,
    summarize: deps.summarize,
    analyzeBash: deps.analyzeBash,
  });
  const verdict = evaluateGuards(ctx, undefined, deps.clock);
  try {
    applyEffects(ctx, verdict.effects, deps.now);
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
    },
    projectDir: ctx.projectDir,
    verdict,
    tool,
  };
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
 * After an edit of `state.md` or a playbook: refresh the parse cache (the next PreToolUse then hits it) and tell the
 * model about errors the edit left, with file and line, so a broken document is visible at once.
 */
function afterToolUse(
  projectDir: string,
  payload: HookPayload,
  deps: HookDeps,
): HookAnswer {
  const answer: HookAnswer = { block: null, context: [], notice: null };
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
  if (errors.length > 0)
    answer.context.push(
      `playbook lint after this edit: ${errors.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`).join(" | ")}`,
    );
  return answer;
}

function relativeTo(projectDir: string, file: string): string | null {
  const root = projectDir.replace(/\\/g, "/").replace(/\/$/, "");
  const path = file.replace(/\\/g, "/");
  if (path.startsWith(`${root}/`)) return path.slice(root.length + 1);
  if (!path.startsWith("/") && !/^[A-Za-z]:/.test(path))
    return path.replace(/^\.\//, "");
  return null;
}

function notice(text: string): HookAnswer {
  return { block: null, context: [], notice: text };
}

/** One line per call in hook-timing.log, and the reason of every block in block-reasons.log. */
export function logHookRun(
  run: HookRun,
  event: HookEvent,
  totalMs: number,
  at: Date,
): void {
  if (!run.projectDir) return;
  try {
    const guards = (run.verdict?.timings ?? [])
      .map((t) => `${t.guard}:${t.ms.toFixed(2)}`)
      .join(",");
    const outcome =
      run.answer.block !== null
        ? `block:${run.verdict?.block?.guard ?? "?"}`
        : run.answer.context.length > 0
          ? "context"
          : "allow";
    appendBoundedLog(
      run.projectDir,
      "hook-timing.log",
      [
        toIsoTime(at),
        event,
        run.tool ?? "-",
        totalMs.toFixed(1),
        outcome,
        guards || "-",
      ].join("\t"),
    );
    if (run.answer.block !== null)
      appendBoundedLog(
        run.projectDir,
        "block-reasons.log",
        [
          toIsoTime(at),
          event,
          run.tool ?? "-",
          run.verdict?.block?.guard ?? "-",
          run.answer.block,
        ].join("\t"),
      );
    for (const failure of run.verdict?.failures ?? [])
      appendBoundedLog(
        run.projectDir,
        "block-reasons.log",
        [
          toIsoTime(at),
          event,
          run.tool ?? "-",
          failure.guard,
          `guard failed${failure.failClosed ? " (fail-closed)" : ""}: ${failure.error}`,
        ].join("\t"),
      );
  } catch {
    // Logs only help diagnosis; a read-only checkout must still get its answer.
  }
}
