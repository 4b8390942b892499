import { simpleGit, type SimpleGit } from "simple-git";
import { parseStatusZ, type StatusEntry } from "../core/archive/git-status.ts";

/** A git command that failed, with git's own message (the part after `fatal:`/`error:` when there is one). */
export class GitCommandError extends Error {
  readonly args: readonly string[];
  constructor(args: readonly string[], message: string) {
    super(message);
    this.name = "GitCommandError";
    this.args = args;
  }
}

/** Everything the archive workflow asks of git, so steps never build command lines themselves. */
export interface GitPort {
  /** How many git processes this port has started (for the benchmark). */
  readonly spawned: () => number;
  currentBranch(): Promise<string | null>;
  /** The commit a ref points at, or null when it does not exist. */
  resolve(ref: string): Promise<string | null>;
  status(): Promise<StatusEntry[]>;
  addAll(paths: readonly string[]): Promise<void>;
  /** Stages the removal of `path` if the index still has it (idempotent). */
  removeFromIndex(path: string): Promise<void>;
  commit(message: string): Promise<string>;
  remoteUrl(remote: string): Promise<string | null>;
  /** The commit `branch` points at on `remote`, asked of the remote itself; null when it has no such branch. */
  remoteBranch(remote: string, branch: string): Promise<string | null>;
  push(remote: string, refspec: string, setUpstream: boolean): Promise<void>;
  deleteRemoteBranch(remote: string, branch: string): Promise<void>;
  fetch(remote: string, branch: string): Promise<void>;
  move(from: string, to: string): Promise<void>;
  /** Whether `path` exists in the commit `ref`. */
  existsAt(ref: string, path: string): Promise<boolean>;
  isAncestor(ancestor: string, of: string): Promise<boolean>;
  switchTo(branch: string): Promise<void>;
  mergeNoFf(branch: string, message: string): Promise<void>;
  mergeFfOnly(ref: string): Promise<void>;
  abortMerge(): Promise<void>;
  /** `origin/HEAD`'s branch, else `main` or `master` when it exists. */
  localDefaultBranch(remote: string): Promise<string | null>;
}

/** The git port of a working tree, through simple-git (no 50 ms exit timer: `completion.onExit` off). */
export function createGitPort(dir: string): GitPort {
  const git: SimpleGit = simpleGit({
    baseDir: dir,
    completion: { onExit: false },
    maxConcurrentProcesses: 1,
    // simple-git counts a non-zero exit as an error only when git also wrote to stderr; `merge-base --is-ancestor`,
    // `cat-file -e` and `rev-parse --verify --quiet` answer "no" silently, so every non-zero exit must count.
    errors: (error, result) => {
      if (error) return error;
      if (result.exitCode === 0) return undefined;
      const output = Buffer.concat([...result.stdErr, ...result.stdOut])
        .toString("utf8")
        .trim();
      return Buffer.from(output || `git exited with status ${result.exitCode}`);
    },
  });
  let spawned = 0;
  const run = async (args: string[]): Promise<string> => {
    spawned++;
    try {
      return await git.raw(args);
    } catch (error) {
      throw new GitCommandError(args, gitMessage(error));
    }
  };
  const quiet = async (args: string[]): Promise<boolean> => {
    try {
      await run(args);
      return true;
    } catch {
      return false;
    }
  };
  return {
    spawned: () => spawned,
    async currentBranch() {
      try {
        return (
          (await run(["symbolic-ref", "--quiet", "--short", "HEAD"])).trim() ||
          null
        );
      } catch {
        return null;
      }
    },
    async resolve(ref) {
      try {
        return (
          (
            await run(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])
          ).trim() || null
        );
      } catch {
        return null;
      }
    },
    async status() {
      return parseStatusZ(
        await run(["status", "--porcelain=v1", "-z", "--untracked-files=all"]),
      );
    },
    async addAll(paths) {
      if (paths.length > 0) await run(["add", "--all", "--", ...paths]);
    },
    async removeFromIndex(path) {
      await run(["rm", "--cached", "--quiet", "--ignore-unmatch", "--", path]);
    },
    async commit(message) {
      await run(["commit", "--quiet", "-m", message]);
      return (await run(["rev-parse", "HEAD"])).trim();
    },
    async remoteUrl(remote) {
      try {
        return (await run(["remote", "get-url", remote])).trim() || null;
      } catch {
        return null;
      }
    },
    async remoteBranch(remote, branch) {
      const out = await run([
        "ls-remote",
        "--heads",
        remote,
        `refs/heads/${branch}`,
      ]);
      return /^([0-9a-f]{40,64})\s/m.exec(out)?.[1] ?? null;
    },
    async push(remote, refspec, setUpstream) {
      await run([
        "push",
        ...(setUpstream ? ["--set-upstream"] : []),
        remote,
        refspec,
      ]);
    },
    async deleteRemoteBranch(remote, branch) {
      await run(["push", remote, "--delete", branch]);
    },
    async fetch(remote, branch) {
      await run([
        "fetch",
        "--quiet",
        remote,
        `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`,
      ]);
    },
    async move(from, to) {
      await run(["mv", "--", from, to]);
    },
    existsAt: (ref, path) => quiet(["cat-file", "-e", `${ref}:${path}`]),
    isAncestor: (ancestor, of) =>
      quiet(["merge-base", "--is-ancestor", ancestor, of]),
    async switchTo(branch) {
      await run(["switch", "--quiet", branch]);
    },
    async mergeNoFf(branch, message) {
      await run(["merge", "--no-ff", "--no-edit", "-m", message, branch]);
    },
    async mergeFfOnly(ref) {
      await run(["merge", "--ff-only", "--quiet", ref]);
    },
    async abortMerge() {
      await quiet(["merge", "--abort"]);
    },
    async localDefaultBranch(remote) {
      try {
        const head = (
          await run([
            "symbolic-ref",
            "--quiet",
            "--short",
            `refs/remotes/${remote}/HEAD`,
          ])
        ).trim();
        if (head.startsWith(`${remote}/`)) return head.slice(remote.length + 1);
      } catch {
        // No origin/HEAD: fall back to the usual names.
      }
      for (const name of ["main", "master"])
        if (
          await quiet([
            "rev-parse",
            "--verify",
            "--quiet",
            `refs/heads/${name}`,
          ])
        )
          return name;
      return null;
    },
  };
}

/** git's own words: the `fatal:`/`error:` lines when there are any, else the whole message. */
function gitMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(
      (l) =>
        /^(?:fatal|error|hint|!|CONFLICT)/.test(l) || / \[rejected\]/.test(l),
    );
  return (lines.length > 0 ? lines.join(" ") : text.trim()).slice(0, 500);
}
