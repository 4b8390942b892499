import { isRepairPath, isStatePath } from "../paths/repo-path.ts";
import type { SecurityMode } from "../model/state.ts";
import { ALLOW, block, context } from "./facts.ts";
import { findProtection } from "./protected-match.ts";
import type { Guard } from "./types.ts";

const STRENGTH: Record<SecurityMode, number> = {
  strict: 3,
  trusted: 2,
  admin: 1,
  developer: 0,
};

/**
 * docs/guards.md #2: `.claude/protected-files.txt` levels (HARD_BLOCK always, BLOCK in strict, WARN as context) plus the
 * built-in rules. The repair path wins over any list, so a listed `state.md` can never deadlock the workflow; but
 * weakening `security` in `state.md` is the user's decision, in every mode.
 */
export const protectedGuard: Guard = {
  id: "protected",
  number: 2,
  events: ["PreToolUse"],
  check(ctx) {
    const warnings: string[] = [];
    for (const change of ctx.changes) {
      if (change.path === null) continue;
      const doc = change.document;
      // A state.md that is missing counts as strict, the default: deleting it first must not open a way around.
      const previous =
        doc?.kind === "state"
          ? (doc.before?.config.security ?? "strict")
          : null;
      if (
        isStatePath(change.path) &&
        doc?.kind === "state" &&
        previous &&
        doc.after &&
        STRENGTH[doc.after.config.security] < STRENGTH[previous]
      ) {
        return block(
          `Blocked: this edit lowers \`security\` in state.md from ${previous} to ${doc.after.config.security}. Relaxing the guards is the user's decision. Next: keep \`security: ${previous}\` in the edit, or ask the user to change it themselves.`,
        );
      }
      if (isRepairPath(change.path)) continue;
      const rule = findProtection(ctx.protectedRules, change.path);
      if (!rule) continue;
      const runtime = change.dynamic
        ? ` (\`${change.command ?? ""}\` names its target, \`${change.raw}\`, only when it runs, so it could change it)`
        : change.command
          ? ` (changed by \`${change.command}\`)`
          : "";
      const where = `\`${change.path}\`${runtime} is listed as ${rule.level} (${rule.source}, pattern \`${rule.pattern}\`)`;
      if (rule.level === "HARD_BLOCK")
        return block(
          change.path.startsWith(".claude/playbook/")
            ? `Blocked: ${where}: records, grants, locks and the cache are written only by playbook itself. Next: prove a subtask with \`playbook verify <id>\` (the user runs \`playbook confirm <id>\`), let the reviewer or the critic record their verdict, and lift the post-loop lock with \`playbook post-loop\`.`
            : `Blocked: ${where} and is never changed by the agent. Next: leave it as it is${change.dynamic ? " and name files explicitly in shell commands" : ""}, or ask the user to change it themselves.`,
        );
      if (ctx.security === "developer") continue;
      if (rule.level === "BLOCK" && ctx.security === "strict")
        return block(
          `Blocked: ${where}; security is strict. Next: ${change.dynamic ? "name files explicitly in shell commands; or " : ""}ask the user to change it themselves, or to set \`security: trusted\` in state.md.`,
        );
      if (rule.level === "WARN")
        warnings.push(`${where}: change it only if the task needs it.`);
    }
    return warnings.length > 0 ? context(warnings.join("\n")) : ALLOW;
  },
};
