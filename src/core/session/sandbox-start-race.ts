/**
 * Claude Code's Bash sandbox failing to start, not the command failing: in a git worktree, the sandbox mounts over
 * the shared repository's `.git/config.lock`, creating it when missing and removing it when the command ends, so a
 * sandbox of another session on the same repository that starts meanwhile finds it gone before bubblewrap mounts it
 * (anthropics/claude-code#78818). The command never ran, and the same command run again starts.
 */
export function isSandboxStartRace(error: string): boolean {
  return /bwrap: Can't (?:get type of source|find source path) [^\n]*[\\/]\.git[\\/][^\n]*\.lock: No such file or directory/.test(
    error,
  );
}

/** What the model is told after such a failure. */
export const SANDBOX_START_RACE_NOTE =
  "Claude Code's sandbox could not start this command: a sandboxed command of another session on this repository (a parallel worktree) held .git/config.lock at that moment (Claude Code's bug anthropics/claude-code#78818). The command did not run: run it again as it was.";
