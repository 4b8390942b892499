import {
  ALLOW,
  block,
  currentPhase,
  describeChanges,
  gatedChanges,
} from "./facts.ts";
import type { Guard } from "./types.ts";

/** docs/guards.md #5: work in a phase waits until every phase it depends on is done. */
export const dependsGuard: Guard = {
  id: "depends",
  number: 5,
  events: ["PreToolUse"],
  check(ctx) {
    if (ctx.security === "developer") return ALLOW;
    const phase = currentPhase(ctx);
    const playbook = ctx.active?.summary;
    if (!phase || !playbook) return ALLOW;
    const open = phase.dependsOn.filter(
      (id) => playbook.phases.find((p) => p.id === id)?.status !== "done",
    );
    if (open.length === 0) return ALLOW;
    const changes = gatedChanges(ctx);
    if (changes.length === 0) return ALLOW;
    return block(
      `Blocked ${describeChanges(changes)}: phase ${phase.id} depends on ${open.map((id) => `${id}`).join(", ")}, which ${open.length === 1 ? "is" : "are"} not done. Next: finish ${open.join(", ")} first (its critic records PASS, then set its \`**status**: done\`), or set \`phase\` in state.md to the phase you are working on.`,
    );
  },
};
