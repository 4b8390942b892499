import { agentGitConfig } from "./agent-git.ts";
import { isPlaceholderOnDisk } from "./placeholder-check.ts";
/** Facts that need a git process: asked only by rare events (PreCompact, a session start that repairs state.md). */
function git(projectDir: string, args: readonly string[]): string | null {
  // Loaded here, not at the top: node:child_process costs the hook ~4 ms on every call otherwise.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result = spawnSync("git", [...agentGitConfig(projectDir), ...args], {
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

/**
 * `git status --porcelain` lines: what is changed and not committed, without a sandbox's mount points (protected
 * names such as `.bashrc` that do not exist), which are not work and which git could not commit anyway.
 */
export function readChangedFiles(projectDir: string): string[] {
  const out = git(projectDir, ["status", "--porcelain=v1"]);
  if (out === null) return [];
  return out
    .split("\n")
    .filter(
      (line) =>
        line.trim() !== "" &&
        !(
          line.startsWith("?? ") &&
          isPlaceholderOnDisk(projectDir, line.slice(3).replace(/^"|"$/g, ""))
        ),
    );
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

/** Whether the repository has a commit to start a branch from. */
export function hasCommits(projectDir: string): boolean {
  return git(projectDir, ["rev-parse", "--verify", "--quiet", "HEAD"]) !== null;
}

/** Whether `projectDir` is inside a git working tree. */
export function isGitRepository(projectDir: string): boolean {
  return (
    git(projectDir, ["rev-parse", "--is-inside-work-tree"])?.trim() === "true"
  );
}

/** The URL of `remote`, or null when there is no such remote. */
export function readRemoteUrl(
  projectDir: string,
  remote: string,
): string | null {
  return git(projectDir, ["remote", "get-url", remote])?.trim() || null;
}

/** The default branch: `origin/HEAD`'s branch, else `main` or `master` when it exists, else the current branch. */
export function readDefaultBranch(projectDir: string): string | null {
  const head = git(projectDir, [
    "symbolic-ref",
    "--quiet",
    "--short",
    "refs/remotes/origin/HEAD",
  ])?.trim();
  if (head?.startsWith("origin/")) return head.slice("origin/".length);
  for (const name of ["main", "master"])
    if (
      git(projectDir, [
        "rev-parse",
        "--verify",
        "--quiet",
        `refs/heads/${name}`,
      ])
    )
      return name;
  return (
    git(projectDir, ["symbolic-ref", "--quiet", "--short", "HEAD"])?.trim() ||
    null
  );
}

/** Whether the local branch `name` exists. */
export function branchExists(projectDir: string, name: string): boolean {
  return (
    git(projectDir, [
      "rev-parse",
      "--verify",
      "--quiet",
      `refs/heads/${name}`,
    ]) !== null
  );
}

/** Creates branch `name` at HEAD and switches to it (uncommitted changes come along); git's message on failure. */
export function createAndSwitchBranch(
  projectDir: string,
  name: string,
): { ok: true } | { ok: false; message: string } {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result = spawnSync(
    "git",
    [...agentGitConfig(projectDir), "switch", "--quiet", "-c", name],
    { cwd: projectDir, encoding: "utf8", timeout: 10_000 },
  );
  return result.status === 0
    ? { ok: true }
    : {
        ok: false,
        message:
          (result.stderr || result.stdout || "").trim() ||
          `git switch -c ${name} failed`,
      };
}
