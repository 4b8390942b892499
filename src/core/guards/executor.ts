import {
  ALLOW,
  block,
  context,
  currentPhase,
  describeChanges,
  gatedChanges,
  isAgent,
  isCodePath,
  resolveExecutor,
} from "./facts.ts";
import type { Guard } from "./types.ts";

/** docs/guards.md #6: code in a phase delegated to Codex, CodeRabbit or the user is not written by Claude. */
export const executorGuard: Guard = {
  id: "executor",
  number: 6,
  events: ["PreToolUse"],
  check(ctx) {
    if (ctx.security === "developer") return ALLOW;
    if (isAgent(ctx, "codex-delegate") || isAgent(ctx, "coderabbit-delegate"))
      return ALLOW;
    const phase = currentPhase(ctx);
    if (!phase) return ALLOW;
    const changes = gatedChanges(ctx).filter(
      (c) => c.path !== null && isCodePath(c.path),
    );
    if (changes.length === 0) return ALLOW;
    const executors = new Set(
      phase.subtasks
        .filter((s) => !s.checked)
        .map((s) => resolveExecutor(ctx, s.executor ?? "worker")),
    );
    if (executors.size !== 1) return ALLOW;
    const [executor] = [...executors];
    if (executor === "user")
      return block(
        `Blocked ${describeChanges(changes)}: the open subtasks of phase ${phase.id} are the user's (executor: user). Next: tell the user what to do and wait for them; they tick the subtasks.`,
      );
    if (executor === "codex" || executor === "coderabbit")
      return context(
        `Phase ${phase.id} is delegated to ${executor}: hand the code change to the ${executor}-delegate subagent instead of writing it yourself.`,
      );
    return ALLOW;
  },
};
