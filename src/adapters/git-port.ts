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

/** The longest a single git command may take: a push or fetch over a slow network, never an endless hang. */
const GIT_TIMEOUT_MS = 120_000;

/**
 * The git port of a working tree. git runs directly (`execFile`), not through simple-git: simple-git waits 50 ms after
 * every command that prints nothing (`add`, `commit -q`, `mv`, `merge-base --is-ancestor`), which made an archive a
 * second slower. git never prompts (`GIT_TERMINAL_PROMPT=0`): a push that needs credentials fails instead of hanging.
 */
export function createGitPort(dir: string): GitPort {
  let spawned = 0;
  const run = (args: string[]): Promise<string> => {
    spawned++;
    const { execFile } = process.getBuiltinModule("node:child_process");
    return new Promise((resolve, reject) => {
      execFile(
        "git",
        args,
        {
          cwd: dir,
          encoding: "utf8",
          timeout: GIT_TIMEOUT_MS,
          maxBuffer: 64 * 1024 * 1024,
          env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
        },
        (error, stdout, stderr) => {
          if (!error) resolve(stdout);
          else
            reject(
              new GitCommandError(
                args,
                gitMessage(
                  `${stderr}\n${stdout}`.trim() ||
                    `git ${args[0] ?? ""} exited with status ${String(error.code)}`,
                ),
              ),
            );
        },
      );
    });
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

/** git's own words: the `fatal:`/`error:` lines when there are any, else the whole output. */
function gitMessage(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(
      (l) =>
        /^(?:fatal|error|hint|!|CONFLICT)/.test(l) || / \[rejected\]/.test(l),
    );
  return (lines.length > 0 ? lines.join(" ") : text.trim()).slice(0, 500);
}
