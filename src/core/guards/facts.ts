import type { PlaybookSummary, StateSummary } from "../model/summary.ts";
import { isRepairPath } from "../paths/repo-path.ts";
import type { FileChange, GuardContext, GuardResult } from "./types.ts";

export const KILL_SWITCH =
  "Kill switch: the user can start Claude Code with PLAYBOOK_DISABLE=1 to turn every playbook guard off.";

export const ALLOW: GuardResult = { decision: { kind: "allow" } };

/** A block whose reason ends with the kill switch, so no block is ever a dead end. */
export function block(reason: string): GuardResult {
  return { decision: { kind: "block", reason: `${reason} ${KILL_SWITCH}` } };
}

export function context(text: string): GuardResult {
  return { decision: { kind: "context", text } };
}

/** Whether the subagent making the call is `name` (also a plugin-scoped `plugin:name`). */
export function isAgent(ctx: GuardContext, name: string): boolean {
  const agent = ctx.agentType;
  return agent !== null && (agent === name || agent.endsWith(`:${name}`));
}

/** Changes inside the repository that are not on the always-open repair path (`state.md`, `plan/**`). */
export function gatedChanges(ctx: GuardContext): FileChange[] {
  return ctx.changes.filter(
    (change) => change.path !== null && !isRepairPath(change.path),
  );
}

export function describeChanges(changes: readonly FileChange[]): string {
  const names = [...new Set(changes.map((c) => c.path ?? c.raw))];
  const shown = names.slice(0, 3).map((n) => `\`${n}\``);
  return names.length > 3
    ? `${shown.join(", ")} and ${names.length - 3} more`
    : shown.join(", ");
}

/** The phase work is happening in: `state.md` goal.phase when the playbook has it, else the first in_progress one. */
export function currentPhase(
  ctx: GuardContext,
): PlaybookSummary["phases"][number] | null {
  const playbook = ctx.active?.summary;
  if (!playbook) return null;
  const named = ctx.state?.goal.phase;
  const byState = named ? playbook.phases.find((p) => p.id === named) : null;
  return (
    byState ?? playbook.phases.find((p) => p.status === "in_progress") ?? null
  );
}

const TOOLSTACK_ROLES: Record<string, Record<string, string>> = {
  A: {
    orchestrator: "claudecode",
    worker: "claudecode",
    reviewer: "claudecode",
    human: "user",
  },
  B: {
    orchestrator: "claudecode",
    worker: "codex",
    reviewer: "claudecode",
    human: "user",
  },
  C: {
    orchestrator: "claudecode",
    worker: "codex",
    reviewer: "coderabbit",
    human: "user",
  },
};

/** What resolving a role reads: `state.md`'s configuration and the active playbook's meta (a guard context has both). */
export interface RoleSources {
  state: Pick<StateSummary, "config"> | null;
  active: { summary: Pick<PlaybookSummary, "meta"> } | null;
}

/** An executor name, or a role resolved through playbook meta, then `state.md` config, then the toolstack. */
export function resolveExecutor(ctx: RoleSources, executor: string): string {
  const roles: Record<string, string> = {
    ...(TOOLSTACK_ROLES[ctx.state?.config.toolstack ?? "A"] ?? {}),
    ...(ctx.state?.config.roles ?? {}),
    ...(ctx.active?.summary.meta.roles ?? {}),
  };
  return roles[executor] ?? executor;
}

const CODE_EXTENSIONS = new Set(
  "ts tsx mts cts js jsx mjs cjs py rb go rs java kt kts swift c h cc cpp cxx hpp cs php scala sh bash zsh fish vue svelte sql css scss sass less html htm lua dart ex exs erl clj m mm r jl pl pm".split(
    " ",
  ),
);

/** Source code, as opposed to docs and data: decides where the executor guard applies. */
export function isCodePath(repoPath: string): boolean {
  const name = repoPath.slice(repoPath.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot > 0 && CODE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase()))
    return true;
  return (
    /^(?:src|lib|app|pkg|cmd|internal)\//.test(repoPath) &&
    !/\.(?:md|txt|json|ya?ml)$/i.test(name)
  );
}
