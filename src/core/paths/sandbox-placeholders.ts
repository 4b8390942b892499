import { PLAN_PATHS, TRUST_PATHS } from "./trust-paths.ts";

/**
 * Names Claude Code's Bash sandbox (and the one validations run in) protects at the project's root even when they do
 * not exist: it makes each missing one first, as an empty file, to mount over it, and removes it when the command
 * ends. Inside the sandbox they show as character devices. While a sandboxed command runs, a process outside sees
 * them as untracked empty files (docs/trust-boundary.md). `folder`: what a real one usually is. The list is
 * `@anthropic-ai/sandbox-runtime`'s dangerous files and folders, the names Claude Code adds (its settings, agents,
 * commands, hooks, skills, output styles, routines, workflows, launch and loop files, scheduled tasks) and the
 * trust paths and the plan, which `init` adds to `sandbox.filesystem.denyWrite`.
 */
export const SANDBOX_MOUNT_POINTS: readonly {
  path: string;
  folder: boolean;
}[] = [
  ...[
    ".gitconfig",
    ".gitmodules",
    ".bashrc",
    ".bash_profile",
    ".zshrc",
    ".zprofile",
    ".profile",
    ".ripgreprc",
    ".mcp.json",
    ".claude/launch.json",
    ".claude/loop.md",
    ".claude/scheduled_tasks.json",
    ".claude/settings.json",
    ".claude/settings.local.json",
  ].map((path) => ({ path, folder: false })),
  ...[
    ".idea",
    ".vscode",
    ".claude/agents",
    ".claude/commands",
    ".claude/hooks",
    ".claude/skills",
    ".claude/output-styles",
    ".claude/routines",
    ".claude/workflows",
  ].map((path) => ({ path, folder: true })),
  ...TRUST_PATHS,
  ...PLAN_PATHS,
];

const PLACEHOLDER_NAMES: ReadonlySet<string> = new Set(
  SANDBOX_MOUNT_POINTS.map((p) => p.path),
);

/**
 * Whether an untracked path is a sandbox's mount point rather than work: a character device (seen from inside), or
 * an empty file under one of the protected names (seen from outside while a sandboxed command runs).
 */
export function isSandboxPlaceholder(
  repoPath: string,
  kind: "character-device" | "empty-file" | "other",
): boolean {
  if (kind === "character-device") return true;
  return kind === "empty-file" && PLACEHOLDER_NAMES.has(repoPath);
}
