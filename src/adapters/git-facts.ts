/** Facts that need a git process: asked only by rare events (PreCompact, a session start that repairs state.md). */
function git(projectDir: string, args: readonly string[]): string | null {
  // Loaded here, not at the top: node:child_process costs the hook ~4 ms on every call otherwise.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result = spawnSync("git", args, {
    cwd: projectDir,
    encoding: "utf8",
    timeout: 3000,
  });
  return result.status === 0 && !result.error ? result.stdout : null;
}

/** The newest commits, one `abc1234 subject` line each (empty without a repository or commits). */
export function readRecentCommits(projectDir: string, count: number): string[] {
  const out = git(projectDir, [
    "log",
    `-n${count}`,
    "--oneline",
    "--no-decorate",
  ]);
  return out === null ? [] : out.split("\n").filter((l) => l !== "");
}

/** `git status --porcelain` lines: what is changed and not committed. */
export function readChangedFiles(projectDir: string): string[] {
  const out = git(projectDir, ["status", "--porcelain=v1"]);
  return out === null ? [] : out.split("\n").filter((l) => l.trim() !== "");
}

/** Whether `path` exists on `branch`; null when git cannot tell (no repository, no such branch). */
export function isFileOnBranch(
  projectDir: string,
  branch: string,
  path: string,
): boolean | null {
  if (
    git(projectDir, [
      "rev-parse",
      "--verify",
      "--quiet",
      `refs/heads/${branch}`,
    ]) === null
  )
    return null;
  return git(projectDir, ["cat-file", "-e", `${branch}:${path}`]) !== null;
}
