import { toRepoPath } from "../paths/repo-path.ts";
import { ALLOW, block, describeChanges, gatedChanges } from "./facts.ts";
import type { Guard, GuardContext, GuardResult } from "./types.ts";

/**
 * docs/guards.md #12: a session reads `CLAUDE.md`, `state.md` and the active playbook before it changes anything outside
 * the repair path (off in admin and developer modes). Reads are remembered per session as they happen.
 */
export const initGuard: Guard = {
  id: "init",
  number: 12,
  events: ["PreToolUse"],
  check(ctx) {
    if (ctx.failOpen !== null && !READ_ONLY_TOOLS.has(ctx.toolName ?? ""))
      return block(
        `Blocked: ${ctx.failOpen} Next: ask the user to run \`npx --no playbook init\` in their terminal, then start a new session.`,
      );
    if (ctx.reads === null) return ALLOW;
    const required = requiredReads(ctx);
    const unread = required.filter((path) => !ctx.reads?.includes(path));
    const read = readTarget(ctx);
    if (read !== null)
      return unread.includes(read)
        ? {
            decision: { kind: "allow" },
            effects: [{ kind: "session-read", path: read }],
          }
        : ALLOW;
    if (ctx.security === "admin" || ctx.security === "developer") return ALLOW;
    if (unread.length === 0) return ALLOW;
    const changes = gatedChanges(ctx);
    if (changes.length === 0) return ALLOW;
    return block(
      `Blocked ${describeChanges(changes)}: this session has not read ${unread.map((p) => `\`${p}\``).join(", ")} yet. Next: Read ${unread.length === 1 ? "it" : "them"} first, then retry.`,
    ) satisfies GuardResult;
  },
};

/** Tools that change nothing: still allowed while the settings would let a failed hook through. */
const READ_ONLY_TOOLS = new Set(["Read", "Grep", "Glob", "LS", "TodoWrite"]);

function requiredReads(ctx: GuardContext): string[] {
  const required: string[] = [];
  if (ctx.claudeMdExists) required.push("CLAUDE.md");
  if (ctx.state) required.push("state.md");
  if (ctx.active) required.push(ctx.active.path);
  return required;
}

/** The repository path a Read call reads, or null for any other call. */
function readTarget(ctx: GuardContext): string | null {
  if (ctx.toolName !== "Read") return null;
  const file = ctx.toolInput["file_path"];
  if (typeof file !== "string") return null;
  return toRepoPath(ctx.projectDir, ctx.projectDir, file);
}
