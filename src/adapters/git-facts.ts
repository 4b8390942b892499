import { runGitSync } from "./git-runner.ts";
import { isPlaceholderOnDisk } from "./placeholder-check.ts";

/** How long a question to git may take by default: these are asked by hook events, which have a deadline. */
const FACT_TIMEOUT_MS = 3000;

/** Facts that need a git process: asked only by rare events (PreCompact, a session start that repairs state.md). */
function git(
  projectDir: string,
  args: readonly string[],
  timeoutMs: number,
): string | null {
  const result = runGitSync({
    cwd: projectDir,
    args,
    purpose: "read",
    timeoutMs,
  });
  return result.status === 0 ? result.stdout : null;
}

/** The newest commits, one `abc1234 subject` line each (empty without a repository or commits). */
export function readRecentCommits(
  projectDir: string,
  count: number,
  timeoutMs = FACT_TIMEOUT_MS,
): string[] {
  const out = git(
    projectDir,
    ["log", `-n${count}`, "--oneline", "--no-decorate"],
    timeoutMs,
  );
  return out === null ? [] : out.split("\n").filter((l) => l !== "");
}

/**
 * `git status --porcelain` lines: what is changed and not committed, without a sandbox's mount points (protected
 * names such as `.bashrc` that do not exist), which are not work and which git could not commit anyway.
 */
export function readChangedFiles(
  projectDir: string,
  timeoutMs = FACT_TIMEOUT_MS,
): string[] {
  const out = git(projectDir, ["status", "--porcelain=v1"], timeoutMs);
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
  timeoutMs = FACT_TIMEOUT_MS,
): boolean | null {
  if (
    git(
      projectDir,
      ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`],
      timeoutMs,
    ) === null
  )
    return null;
  return (
    git(projectDir, ["cat-file", "-e", `${branch}:${path}`], timeoutMs) !== null
  );
}

/** Whether the repository has a commit to start a branch from. */
export function hasCommits(
  projectDir: string,
  timeoutMs = FACT_TIMEOUT_MS,
): boolean {
  return (
    git(projectDir, ["rev-parse", "--verify", "--quiet", "HEAD"], timeoutMs) !==
    null
  );
}

/** Whether `projectDir` is inside a git working tree. */
export function isGitRepository(
  projectDir: string,
  timeoutMs = FACT_TIMEOUT_MS,
): boolean {
  return (
    git(
      projectDir,
      ["rev-parse", "--is-inside-work-tree"],
      timeoutMs,
    )?.trim() === "true"
  );
}

/** The URL of `remote`, or null when there is no such remote. */
export function readRemoteUrl(
  projectDir: string,
  remote: string,
  timeoutMs = FACT_TIMEOUT_MS,
): string | null {
  return (
    git(projectDir, ["remote", "get-url", remote], timeoutMs)?.trim() || null
  );
}

/** The default branch: `origin/HEAD`'s branch, else `main` or `master` when it exists, else the current branch. */
export function readDefaultBranch(
  projectDir: string,
  timeoutMs = FACT_TIMEOUT_MS,
): string | null {
  const ask = (args: readonly string[]) => git(projectDir, args, timeoutMs);
  const head = ask([
    "symbolic-ref",
    "--quiet",
    "--short",
    "refs/remotes/origin/HEAD",
  ])?.trim();
  if (head?.startsWith("origin/")) return head.slice("origin/".length);
  for (const name of ["main", "master"])
    if (ask(["rev-parse", "--verify", "--quiet", `refs/heads/${name}`]))
      return name;
  return ask(["symbolic-ref", "--quiet", "--short", "HEAD"])?.trim() || null;
}

/** Whether the local branch `name` exists. */
export function branchExists(
  projectDir: string,
  name: string,
  timeoutMs = FACT_TIMEOUT_MS,
): boolean {
  return (
    git(
      projectDir,
      ["rev-parse", "--verify", "--quiet", `refs/heads/${name}`],
      timeoutMs,
    ) !== null
  );
}

/** Creates branch `name` at HEAD and switches to it (uncommitted changes come along); git's message on failure. */
export function createAndSwitchBranch(
  projectDir: string,
  name: string,
  timeoutMs = 10_000,
): { ok: true } | { ok: false; message: string } {
  const result = runGitSync({
    cwd: projectDir,
    args: ["switch", "--quiet", "-c", name],
    purpose: "act",
    timeoutMs,
  });
  return result.status === 0
    ? { ok: true }
    : {
        ok: false,
        message:
          (result.stderr || result.stdout || "").trim() ||
          `git switch -c ${name} failed`,
      };
}
