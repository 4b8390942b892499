import { agentGitConfig } from "./agent-git.ts";

/**
 * Whether tracked files have uncommitted changes (staged or not); null when git cannot tell. Only asked for commands
 * that could throw such work away, so the common hook path starts no git process.
 */
export function hasUncommittedTrackedChanges(
  projectDir: string,
): boolean | null {
  // Loaded here, not at the top: starting node:child_process costs the hook ~4 ms on every call otherwise.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result = spawnSync(
    "git",
    [
      ...agentGitConfig(projectDir),
      "status",
      "--porcelain=v1",
      "--untracked-files=no",
    ],
    { cwd: projectDir, encoding: "utf8", timeout: 5000 },
  );
  if (result.status !== 0 || result.error) return null;
  return result.stdout.trim() !== "";
}
