import { ALLOW, block, describeChanges, gatedChanges } from "./facts.ts";
import type { Guard } from "./types.ts";

/** docs/guards.md #1: while the post-loop lock is set, nothing but the repair path changes until the next task is picked. */
export const pendingGuard: Guard = {
  id: "pending",
  number: 1,
  events: ["PreToolUse"],
  check(ctx) {
    if (!ctx.lock || ctx.security === "developer") return ALLOW;
    const changes = gatedChanges(ctx);
    if (changes.length === 0) return ALLOW;
    const what = ctx.lock.playbook
      ? `\`${ctx.lock.playbook}\``
      : "the last playbook";
    const pr = ctx.lock.pr ? ` (PR ${ctx.lock.pr})` : "";
    return block(
      `Blocked ${describeChanges(changes)}: the post-loop lock is set because ${what} was archived${pr} with status ${ctx.lock.status}. Next: run /post-loop (\`playbook post-loop\`) to pick the next task; it clears the lock. state.md and plan/** stay editable.`,
    );
  },
};
