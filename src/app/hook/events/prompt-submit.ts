import {
  readSessionState,
  writeSessionState,
} from "../../../adapters/session-store.ts";
import type { PlaybookConfig } from "../../../core/config/config.ts";
import type { GuardContext } from "../../../core/guards/types.ts";
import { detectIntent } from "../../../core/intent/detect-intent.ts";
import { playbookProgress } from "../../../core/session/playbook-progress.ts";
import { emptySessionState } from "../../../core/session/session-state.ts";
import { renderPromptStatus } from "../../../core/session/session-summary.ts";
import { toIsoTime } from "../../../core/time/iso-time.ts";
import type { HookAnswer } from "../../../hooks/reply.ts";

/**
 * UserPromptSubmit (docs/sessions.md): one status line, and when no playbook is active and the prompt asks for changes,
 * the pointer to Skill(playbook-init). The user speaking resets this session's continuation counters and failures,
 * and remembers whether the prompt asked for work (a question is answered without the continuation loop).
 */
export function runPromptSubmit(
  ctx: GuardContext,
  prompt: string,
  deps: { now: () => Date; config: PlaybookConfig },
): HookAnswer {
  const config = deps.config;
  const intent = config.intent.enabled
    ? detectIntent(prompt, {
        work: config.intent.work,
        notWork: config.intent.notWork,
      }).intent
    : null;
  const at = toIsoTime(deps.now());
  if (ctx.sessionId) {
    const state =
      readSessionState(ctx.projectDir, ctx.sessionId) ?? emptySessionState();
    try {
      writeSessionState(ctx.projectDir, ctx.sessionId, {
        ...state,
        started: state.started ?? at,
        lastSeen: at,
        lastPrompt: intent,
        lastPromptAt: at,
        continuation: { consecutive: 0, byPhase: state.continuation.byPhase },
        failures: [],
      });
    } catch {
      // The status line still helps; the counters only bound the continuation loop, which then lets the agent stop.
    }
  }
  const context: string[] = [];
  const progress = playbookProgress(ctx);
  if (config.context.prompt)
    context.push(renderPromptStatus(progress, ctx.lock, ctx.git.branch));
  if (
    intent === "work" &&
    !ctx.active &&
    !ctx.lock &&
    !ctx.state?.playbook.active
  )
    context.push(
      "This prompt asks for changes and no playbook is active: start with Skill(playbook-init), which writes the playbook and has it reviewed. Until then only state.md and plan/ can be edited.",
    );
  return { block: null, context, notice: null };
}
