import type { HookEvent } from "../../../core/guards/events.ts";
import type { HookPayload } from "../../../hooks/payload.ts";
import type { HookAnswer } from "../../../hooks/reply.ts";
import { buildGuardContext } from "../build-guard-context.ts";
import { readConfig } from "../../workspace/read-config.ts";
import {
  localBoundaryFacts,
  syncLocalBoundaryFiles,
} from "../../workspace/sync-local-boundary.ts";
import { recordCriticVerdicts } from "../record-critic-verdicts.ts";
import { preparePayload, type HookDeps, type HookRun } from "../hook-run.ts";
import { runPreCompact } from "./pre-compact.ts";
import { runPromptSubmit } from "./prompt-submit.ts";
import { runSessionEnd } from "./session-end.ts";
import { runSessionStart } from "./session-start.ts";
import { runStop } from "./stop.ts";

/**
 * One session event (SessionStart, UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionEnd; docs/sessions.md): validate
 * the payload, read the workspace the way the guards see it, then act. Lives in its own bundle, so tool calls never load it.
 */
export function runSessionHook(
  event: HookEvent,
  json: unknown,
  projectDir: string,
  deps: HookDeps,
): HookRun {
  const prepared = preparePayload(event, json);
  if (!prepared.ok) return prepared.run;
  if (event === "SubagentStop")
    return {
      answer: recordCriticVerdicts(projectDir, prepared.payload, deps),
      projectDir,
      verdict: null,
      tool: null,
    };
  const lived = lifecycle(event, prepared.payload, projectDir, deps);
  return {
    answer: lived.answer,
    projectDir: lived.projectDir,
    verdict: null,
    tool: null,
  };
}

/** SessionStart, UserPromptSubmit, Stop, PreCompact and SessionEnd (docs/sessions.md): read the workspace, then act. */
function lifecycle(
  event: HookEvent,
  payload: HookPayload,
  projectDir: string,
  deps: HookDeps,
): { answer: HookAnswer; projectDir: string } {
  const ctx = buildGuardContext({
    event,
    payload,
    projectDir,
    summarize: deps.summarize,
  });
  const { config, problems } = readConfig(ctx.projectDir);
  const text = (key: string) =>
    typeof payload[key] === "string" ? payload[key] : null;
  const answer = ((): HookAnswer => {
    switch (event) {
      case "SessionStart":
        return runSessionStart(ctx, text("source") ?? "startup", {
          now: deps.now,
          setStateField: deps.setStateField,
          config,
          configProblems: problems.map((p) => p.message),
          applyLocalBoundary: deps.applyLocalBoundary,
        });
      case "UserPromptSubmit":
        return runPromptSubmit(ctx, payload.prompt ?? "", {
          now: deps.now,
          config,
        });
      case "Stop":
        return runStop(ctx, payload, {
          now: deps.now,
          config,
          distDir: deps.distDir,
        });
      case "PreCompact":
        return runPreCompact(ctx, text("trigger"), { now: deps.now });
      case "SessionEnd":
        // Claude Code loads the next session's settings before its SessionStart hook runs: a permission rule taken
        // out only then would hold for that whole session.
        try {
          if (deps.applyLocalBoundary)
            syncLocalBoundaryFiles(
              ctx.projectDir,
              localBoundaryFacts(ctx),
              "settings",
              deps.applyLocalBoundary,
            );
        } catch {
          // The next SessionStart tries again, and says why if it cannot.
        }
        return runSessionEnd(
          ctx.projectDir,
          ctx.sessionId,
          ctx.state,
          text("reason"),
          deps,
        );
      default:
        return { block: null, context: [], notice: null };
    }
  })();
  return { answer, projectDir: ctx.projectDir };
}
