import { runGitSync } from "./git-runner.ts";

/**
 * Whether tracked files have uncommitted changes (staged or not); null when git cannot tell. Only asked for commands
 * that could throw such work away, so the common hook path starts no git process.
 */
export function hasUncommittedTrackedChanges(
  projectDir: string,
  timeoutMs = 5000,
): boolean | null {
  const result = runGitSync({
    cwd: projectDir,
    args: ["status", "--porcelain=v1", "--untracked-files=no"],
    purpose: "read",
    timeoutMs,
  });
  if (result.status !== 0) return null;
  return result.stdout.trim() !== "";
}
