import { execFileSync, spawn } from "node:child_process";
import { devNull } from "node:os";

// The bare repository behind the local GitHub: plumbing commands only, so merges happen without a worktree.

const GITHUB_IDENTITY = { name: "GitHub", email: "noreply@github.com" };

export interface CommitInfo {
  parents: string[];
  author: { name: string; email: string; date: string };
  message: string;
}

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Branch, tag and sha names without revision syntax, so git reads them as names and never as options. */
export function isPlainRefName(name: string): boolean {
  return (
    name.length > 0 &&
    !name.startsWith("-") &&
    !name.startsWith("/") &&
    !name.endsWith("/") &&
    !name.endsWith(".lock") &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u0020\u007f~^:?*[\\]|\.\.|@\{|\/\//.test(name)
  );
}

/** Environment for the server's git: none of the caller's GIT_* variables, no user or system config. */
function gitEnvironment(bare: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith("GIT_")) env[key] = value;
  return {
    ...env,
    GIT_DIR: bare,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: devNull,
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: GITHUB_IDENTITY.name,
    GIT_AUTHOR_EMAIL: GITHUB_IDENTITY.email,
    GIT_COMMITTER_NAME: GITHUB_IDENTITY.name,
    GIT_COMMITTER_EMAIL: GITHUB_IDENTITY.email,
  };
}

/** Git on the bare repository, through plumbing commands only: no worktree, no index. */
export function createBareRepository(bare: string) {
  const baseEnv = gitEnvironment(bare);

  const run = (
    args: string[],
    options: { input?: string; env?: Record<string, string> } = {},
  ): Promise<GitResult> =>
    new Promise((resolve, reject) => {
      const child = spawn("git", args, {
        env: { ...baseEnv, ...options.env },
        stdio: [
          options.input === undefined ? "ignore" : "pipe",
          "pipe",
          "pipe",
        ],
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.on("error", reject);
      child.on("close", (code) =>
        resolve({
          code: code ?? -1,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr: Buffer.concat(stderr).toString("utf8"),
        }),
      );
      if (child.stdin) {
        // A git that fails early closes its stdin; its exit code tells what went wrong.
        child.stdin.on("error", () => undefined);
        child.stdin.end(options.input);
      }
    });

  const output = async (
    args: string[],
    options: { input?: string; env?: Record<string, string> } = {},
  ): Promise<string> => {
    const result = await run(args, options);
    if (result.code !== 0)
      throw new Error(
        `git ${args.join(" ")} exited ${result.code}: ${result.stderr.trim()}`,
      );
    return result.stdout.trim();
  };

  const resolveFullRef = async (full: string): Promise<string | undefined> => {
    const result = await run(["show-ref", "--verify", "--hash", full]);
    return result.code === 0 ? result.stdout.trim() : undefined;
  };

  return {
    resolveFullRef,

    /** The sha a branch points to, or undefined when there is no such branch. */
    resolveBranch(name: string): Promise<string | undefined> {
      if (!isPlainRefName(name)) return Promise.resolve(undefined);
      return resolveFullRef(`refs/heads/${name}`);
    },

    resolveBranchSync(name: string): string | undefined {
      if (!isPlainRefName(name)) return undefined;
      try {
        return execFileSync(
          "git",
          ["show-ref", "--verify", "--hash", `refs/heads/${name}`],
          { env: baseEnv, stdio: ["ignore", "pipe", "ignore"] },
        )
          .toString("utf8")
          .trim();
      } catch {
        return undefined;
      }
    },

    /** The blob at `path` of `commit` (a full sha) as raw bytes with its id, or undefined when there is none. */
    async readBlob(
      commit: string,
      path: string,
    ): Promise<{ sha: string; content: Buffer } | undefined> {
      const id = await run([
        "rev-parse",
        "--verify",
        "--quiet",
        `${commit}:${path}`,
      ]);
      const sha = id.stdout.trim();
      if (
        id.code !== 0 ||
        (await run(["cat-file", "-t", sha])).stdout.trim() !== "blob"
      )
        return undefined;
      const content = execFileSync("git", ["cat-file", "blob", sha], {
        env: baseEnv,
      });
      return { sha, content };
    },

    /** A sha (full or abbreviated), branch or tag name resolved to a full commit sha. */
    async resolveCommit(ref: string): Promise<string | undefined> {
      if (!isPlainRefName(ref)) return undefined;
      const result = await run([
        "rev-parse",
        "--verify",
        "--quiet",
        `${ref}^{commit}`,
      ]);
      return result.code === 0 ? result.stdout.trim() : undefined;
    },

    /** The merged tree of two commits, or undefined when they conflict (or share no history). */
    async mergeTree(ours: string, theirs: string): Promise<string | undefined> {
      const result = await run(["merge-tree", "--write-tree", ours, theirs]);
      if (result.code === 0) return result.stdout.split("\n")[0]!.trim();
      if (result.code === 1 || result.stderr.includes("unrelated histories"))
        return undefined;
      throw new Error(`git merge-tree exited ${result.code}: ${result.stderr}`);
    },

    commitTree(
      tree: string,
      parents: string[],
      message: string,
      env: Record<string, string> = {},
    ): Promise<string> {
      const args = ["commit-tree", "--no-gpg-sign", tree];
      for (const parent of parents) args.push("-p", parent);
      return output(args, { input: message, env });
    },

    async readCommit(sha: string): Promise<CommitInfo> {
      const raw = (await run(["cat-file", "commit", sha])).stdout;
      const split = raw.indexOf("\n\n");
      const header = split === -1 ? raw : raw.slice(0, split);
      const author = /^author (.*) <(.*)> (\d+ [+-]\d{4})$/m.exec(header);
      return {
        parents: [...header.matchAll(/^parent ([0-9a-f]+)$/gm)].map(
          (match) => match[1]!,
        ),
        author: {
          name: author?.[1] ?? "",
          email: author?.[2] ?? "",
          date: author?.[3] ?? "",
        },
        message: split === -1 ? "" : raw.slice(split + 2),
      };
    },

    /** Commits reachable from `head` but not `base`, oldest first, merges left out (as `git rebase` does). */
    async commitsBetween(base: string, head: string): Promise<string[]> {
      const listed = await output([
        "rev-list",
        "--reverse",
        "--no-merges",
        `${base}..${head}`,
      ]);
      return listed.split("\n").filter(Boolean);
    },

    async countCommits(base: string, head: string): Promise<number> {
      return Number(await output(["rev-list", "--count", `${base}..${head}`]));
    },

    async diffStat(
      base: string,
      head: string,
    ): Promise<{ additions: number; deletions: number; files: number }> {
      const result = await run(["diff", "--numstat", `${base}...${head}`]);
      const stat = { additions: 0, deletions: 0, files: 0 };
      if (result.code !== 0) return stat;
      for (const line of result.stdout.split("\n").filter(Boolean)) {
        const [added, deleted] = line.split("\t");
        stat.additions += Number(added) || 0;
        stat.deletions += Number(deleted) || 0;
        stat.files += 1;
      }
      return stat;
    },

    /** Compare-and-swap: false when the ref no longer points at `old`. */
    async updateRef(full: string, next: string, old: string): Promise<boolean> {
      return (await run(["update-ref", full, next, old])).code === 0;
    },

    async deleteRef(full: string, old: string): Promise<boolean> {
      return (await run(["update-ref", "-d", full, old])).code === 0;
    },
  };
}
