import { isClaudeConfigPath } from "../paths/claude-config.ts";
import { isRepairPath } from "../paths/repo-path.ts";
import { ALLOW, block, context } from "./facts.ts";
import { findProtection } from "./protected-match.ts";
import type { Guard, GuardContext, GuardResult } from "./types.ts";
import { judgeUnknownToolPath, unknownToolReason } from "./unknown-tool.ts";

/**
 * docs/guards.md #2: `.claude/protected-files.txt` levels (HARD_BLOCK always, BLOCK in strict, WARN as context) plus the
 * built-in rules. The repair path wins over any list, so a listed `state.md` can never deadlock the workflow. The
 * security mode itself lives in `.claude/playbook.json`, a trust path the agent cannot write.
 */
export const protectedGuard: Guard = {
  id: "protected",
  number: 2,
  events: ["PreToolUse"],
  // It judges writes to the records and the trust paths: a failure must not let a write through.
  failClosed: true,
  check(ctx) {
    const unknown = checkUnknownTool(ctx);
    if (unknown) return unknown;
    const outside = firstOutsideReason(
      ctx,
      ctx.changes.map((c) => c.absolute),
    );
    if (outside) return block(outside);
    const away = ctx.changes.find(
      (c) =>
        c.tool !== "Bash" &&
        c.path === null &&
        !isShellWritable(ctx, c.absolute),
    );
    if (away) return block(outsideWritableReason(away.absolute));
    const warnings: string[] = [];
    for (const change of ctx.changes) {
      if (change.path === null) continue;
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
          `Blocked: ${where}; security is strict. Next: ${change.dynamic ? "name files explicitly in shell commands; or " : ""}ask the user to change it themselves, or to set \`"security": "trusted"\` in .claude/playbook.json.`,
        );
      if (rule.level === "WARN")
        warnings.push(`${where}: change it only if the task needs it.`);
    }
    return warnings.length > 0 ? context(warnings.join("\n")) : ALLOW;
  },
};

/**
 * Claude Code's file tools are not sandboxed: in every mode they write only where the agent's shell may, the project,
 * the temporary folders and the sandbox's own `allowWrite` folders. Elsewhere lie the user's git, ssh, shell and npm
 * configuration and the folders on `PATH`, which programs outside the sandbox read (docs/trust-boundary.md).
 */
function isShellWritable(ctx: GuardContext, absolute: string): boolean {
  const within = (dir: string) =>
    absolute === dir || absolute.startsWith(`${dir.replace(/\/$/, "")}/`);
  if ((ctx.sandboxAllowWrite ?? []).some(within)) return true;
  // The user's folder is never a temporary one, even where it lies inside one (a throwaway HOME under /tmp).
  const home = ctx.homeDir;
  return ctx.tempDirs.some(
    (dir) =>
      within(dir) &&
      (home === null || !within(home) || dir.startsWith(`${home}/`)),
  );
}

function outsideWritableReason(path: string): string {
  return `Blocked: \`${path}\` is outside the project and the temporary folders, where the file tools may not write (the agent's shell cannot either): files there configure programs that run outside the sandbox (git, ssh, the shell, npm). Next: keep the change inside the project, or ask the user to make it themselves.`;
}

/** Every mode: whoever writes Claude Code's own configuration can switch the hooks and the sandbox off. */
function claudeConfigReason(path: string): string {
  return `Blocked: \`${path}\` is Claude Code's own configuration (user settings, MCP servers, plugins or managed settings), which decides whether playbook's hooks and sandbox run; the agent never changes it. Next: ask the user to make this change themselves.`;
}

/**
 * Why the first of `paths` outside the project may not be written, in every mode: Claude Code's configuration; or,
 * with parallel worktrees, the repository's git folder (it configures the git the hook runs outside the sandbox) or
 * another worktree's records, loader and playbook-kit, which another session trusts.
 */
function firstOutsideReason(
  ctx: GuardContext,
  paths: readonly string[],
): string | null {
  const config = paths.find((p) =>
    isClaudeConfigPath(p, ctx.claudeConfigPaths),
  );
  if (config) return claudeConfigReason(config);
  const place = paths.find((p) =>
    isClaudeConfigPath(p, ctx.repositoryPlaces ?? []),
  );
  return place
    ? `Blocked: \`${place}\` is outside this working tree and guarded: the repository's git folder, or another worktree's trust paths. Next: work in this working tree, or ask the user to make this change.`
    : null;
}

/** A tool the guards do not know is refused when its input names a guarded path: what it does there is unknown. */
function checkUnknownTool(ctx: GuardContext): GuardResult | null {
  const outside = firstOutsideReason(ctx, ctx.unknownToolOutsidePaths ?? []);
  if (outside) return block(outside);
  for (const path of ctx.unknownToolPaths ?? []) {
    const verdict = judgeUnknownToolPath(
      path,
      ctx.protectedRules,
      ctx.security,
    );
    if (verdict) return block(unknownToolReason(ctx.toolName ?? "", verdict));
  }
  return null;
}
