/**
 * Claude Code's own configuration outside the project: the user's settings and global state (the user-scope MCP
 * servers, plugins and their hooks), and the managed settings that outrank every other level. Whoever writes them
 * decides whether playbook's hooks and sandbox run at all (`disableAllHooks`, `sandbox.enabled`) and can start
 * programs outside the sandbox (an MCP server, a plugin's hook). Claude Code's Write and Edit tools are not
 * sandboxed, so the file tools are denied these paths too, not only the agent's shell.
 */
export interface ClaudeConfigPlaces {
  /** The user's folder, resolved; null when unknown. */
  homeDir: string | null;
  /** `CLAUDE_CONFIG_DIR` when set (Claude Code then keeps its user settings there), resolved. */
  configDir: string | null;
}

/** The managed settings' folders (Linux and WSL, macOS): only an administrator writes them, and they win. */
const MANAGED_FOLDERS = [
  "/etc/claude-code",
  "/Library/Application Support/ClaudeCode",
];

/** The absolute folders and files that hold Claude Code's configuration outside any project. */
export function claudeConfigPaths(places: ClaudeConfigPlaces): string[] {
  const paths = [...MANAGED_FOLDERS];
  if (places.homeDir !== null)
    paths.push(`${places.homeDir}/.claude`, `${places.homeDir}/.claude.json`);
  if (places.configDir !== null) paths.push(places.configDir);
  return paths;
}

/** Whether an absolute POSIX path is one of `paths` or lies inside one. */
export function isClaudeConfigPath(
  absolute: string,
  paths: readonly string[],
): boolean {
  return paths.some((p) => absolute === p || absolute.startsWith(`${p}/`));
}

/**
 * `permissions.deny` rules for the same places, as Claude Code reads them: `~/` from the user's folder, `//` from the
 * file system's root (tried with the pinned and the minimum version). `CLAUDE_CONFIG_DIR` is machine-specific, and
 * macOS's managed folder has a space no rule was tried with: the hook covers both.
 */
export function claudeConfigDenyRules(): string[] {
  return [
    "Edit(~/.claude/**)",
    "Edit(~/.claude.json)",
    "Edit(//etc/claude-code/**)",
  ];
}
