import { claudeConfigDenyRules } from "./claude-config.ts";
import { userProgramDenyRules } from "./user-program-files.ts";

/** Where init writes the hook loader, which every hook handler runs. */
export const HOOK_LOADER = ".claude/hooks/playbook.cjs";

/**
 * The trust paths (docs/trust-boundary.md): what proves work and what enforces the rules. The agent's shell sees
 * them read-only (Claude Code's Bash sandbox, `sandbox.filesystem.denyWrite`), the file tools may not write them
 * (`permissions.deny`), validations run with them read-only, and the `protected` guard refuses them in every mode.
 * Folders cover everything inside them. Paths are relative to the project's root.
 */
export const TRUST_PATHS: readonly { path: string; folder: boolean }[] = [
  // Records, grants, locks, the archive journal, the parse cache, logs and trusted jobs.
  { path: ".claude/playbook", folder: true },
  // The security mode and the rest of the configuration.
  { path: ".claude/playbook.json", folder: false },
  { path: ".claude/protected-files.txt", folder: false },
  // The reviewer and critic whose verdicts count.
  { path: ".claude/agents", folder: true },
  // The loader every hook handler runs: it refuses writes when the package below is missing or altered.
  { path: HOOK_LOADER, folder: false },
  // The enforcement code itself, and the command that runs it.
  { path: "node_modules/playbook-kit", folder: true },
  { path: "node_modules/.bin/playbook", folder: false },
];

/**
 * The plan: read-only to the agent's shell and its validations, so it changes only through the door the hook checks
 * (docs/trust-boundary.md, "The plan has one door"). The agent edits them with the file tools, which the hook judges
 * on the parsed documents; playbook's commands that write them (`new`, `verify`, `review`, the archive) run outside
 * the sandbox as trusted jobs. Unlike the trust paths, they are not closed to the file tools.
 */
export const PLAN_PATHS: readonly { path: string; folder: boolean }[] = [
  { path: "plan", folder: true },
  { path: "state.md", folder: false },
];

/**
 * Claude Code's own project configuration: the settings switch the sandbox and the hooks, and `.mcp.json` starts MCP
 * servers, which run outside the sandbox. The file tools may not write them either.
 */
export const SETTINGS_FILES: readonly string[] = [
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".mcp.json",
];

/**
 * Everything no process but playbook, git and the user may write: the trust paths, the plan, Claude Code's settings
 * and git's own folder. Validations run with these read-only, and a tool the hook does not know may not name them.
 */
export const WRITE_GUARDED_PATHS: readonly string[] = [
  ...TRUST_PATHS.map((p) => p.path),
  ...PLAN_PATHS.map((p) => p.path),
  ...SETTINGS_FILES,
  ".git",
];

/** Whether a repository-relative path is one of `WRITE_GUARDED_PATHS` or lies inside one. */
export function isWriteGuarded(repoPath: string): boolean {
  return WRITE_GUARDED_PATHS.some(
    (p) => repoPath === p || repoPath.startsWith(`${p}/`),
  );
}

/** `sandbox.filesystem.denyWrite` entries: relative paths, which Claude Code resolves against the project. */
export function sandboxDenyWrite(): string[] {
  return [...TRUST_PATHS, ...PLAN_PATHS].map((p) => p.path);
}

/**
 * `permissions.deny` rules for the file tools. Claude Code applies `Edit(…)` rules to every tool that edits files
 * (Edit, MultiEdit, Write, NotebookEdit; seen with the pinned and the minimum version, while `Write(…)` rules with
 * a path matched nothing). A leading `/` anchors the pattern at the project's root.
 */
export function fileToolDenyRules(): string[] {
  const rules: string[] = [];
  for (const { path, folder } of TRUST_PATHS)
    rules.push(folder ? `Edit(/${path}/**)` : `Edit(/${path})`);
  for (const path of SETTINGS_FILES) rules.push(`Edit(/${path})`);
  return [...rules, ...claudeConfigDenyRules(), ...userProgramDenyRules()];
}

/** Whether a repository-relative path is a trust path or lies inside one. */
export function isTrustPath(repoPath: string): boolean {
  return TRUST_PATHS.some(({ path, folder }) =>
    folder
      ? repoPath === path || repoPath.startsWith(`${path}/`)
      : repoPath === path,
  );
}
