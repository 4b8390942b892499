import { additionsOfPatch } from "../core/archive/patch-additions.ts";
import { realpathSync } from "node:fs";
import { PlaybookError } from "../core/errors.ts";
import type { GitPort, RefSnapshot } from "../core/ports.ts";
import {
  isTrustedProcess,
  readUserGitConfig,
  runGit,
  type GitCall,
  type GitCredentials,
} from "./git-runner.ts";
import { isPlaceholderOnDisk } from "./placeholder-check.ts";
import { parseStatusV2Z } from "../core/archive/git-status.ts";
import { planGitHubAuth } from "../core/archive/git-auth.ts";

/** A git command that failed, with git's own message (the part after `fatal:`/`error:` when there is one). */
export class GitCommandError extends PlaybookError {
  readonly args: readonly string[];
  constructor(args: readonly string[], message: string) {
    super("E_GIT", message, {
      hint: `\`git ${args[0] ?? ""}\` failed: fix what git says above, then run the command again.`,
    });
    this.name = "GitCommandError";
    this.args = args;
  }
}

/** A push git refused because the remote branch has commits this clone does not have (never forced). */
export class PushRejected extends GitCommandError {
  constructor(args: readonly string[], message: string) {
    super(args, message);
    this.name = "PushRejected";
  }
}

/** The longest a single git command may take: a push or fetch over a slow network, never an endless hang. */
const GIT_TIMEOUT_MS = 120_000;

/**
 * git's words when another git process holds a lock this one needs: the worktrees of one repository share its refs
 * (a parallel session's fetch of `origin/main`, its branch deletion rewriting `packed-refs`). The other process
 * finishes in moments, and a command that could not take its lock changed nothing, so it is run again.
 */
const HELD_LOCK =
  /Unable to create '[^']*\.lock': File exists|cannot lock ref|could not lock config file|unable to update local ref/i;
const LOCK_RETRIES = [50, 150, 400, 1000, 2000];

/** One git process's outcome: `ok` when it exited 0. */
interface GitRun {
  ok: boolean;
  code: unknown;
  stdout: string;
  stderr: string;
}

export interface GitPortOptions {
  /** Milliseconds each git command may take (a push over a slow network): the caller's deadline. */
  timeoutMs?: number;
  /**
   * How a trusted process's push and fetch authenticate (`archive.gitCredentials`, docs/archive.md): `playbook`
   * sends the GitHub token to an https remote on GitHub and runs plain ssh; `helper` lets the user's own credential
   * helpers, `core.sshCommand` and ssh configuration in. A person's own terminal always uses their own git.
   */
  credentials?: "playbook" | "helper";
  /** The GitHub token, asked for when a push first needs it; null without one. */
  githubToken?: () => string | null;
  /** The hosts the token belongs to (`gitHubHosts`). */
  githubHosts?: readonly string[];
  /** The environment git starts from (tests); the process's own by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The git port of a working tree. git runs through the runner (git-runner.ts): in the hook and its jobs it reads
 * only the repository's own settings, runs no program any settings name, commits as the identity the repository (else
 * the user's global configuration, else the environment) gives, and authenticates only as `options.credentials`
 * says. It never prompts: a push that needs credentials it was not given fails instead of hanging. git's porcelain
 * output is parsed here (docs/decisions.md: not simple-git, which waits 50 ms after every command that prints nothing).
 */
export function createGitPort(
  dir: string,
  options: GitPortOptions = {},
): GitPort {
  let spawned = 0;
  const timeoutMs = options.timeoutMs ?? GIT_TIMEOUT_MS;
  const env = options.env ?? process.env;
  const trusted = isTrustedProcess(env);
  type Extra = Pick<GitCall, "identity" | "remote" | "credentials">;
  const exec = async (args: string[], extra: Extra = {}): Promise<GitRun> => {
    for (const wait of LOCK_RETRIES) {
      const r = await execOnce(args, extra);
      if (r.ok || !HELD_LOCK.test(r.stderr)) return r;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return execOnce(args, extra);
  };
  const execOnce = async (args: string[], extra: Extra): Promise<GitRun> => {
    spawned++;
    const r = await runGit({
      cwd: dir,
      args,
      purpose: "act",
      timeoutMs,
      env,
      ...extra,
    });
    return {
      ok: r.status === 0,
      code: r.status,
      stdout: r.stdout,
      stderr: r.stderr,
    };
  };
  // Who commits, asked once and only in a trusted process (a person's git knows its user).
  let identity: Promise<GitCall["identity"]> | undefined;
  const commitIdentity = (): Promise<Extra> => {
    if (!trusted) return Promise.resolve({});
    identity ??= (async () => {
      const names = /^user\.(name|email)$/.source;
      const local = await execOnce(["config", "-z", "--get-regexp", names], {});
      const found = new Map(parseConfigList(local.ok ? local.stdout : ""));
      if (!found.get("user.name") || !found.get("user.email"))
        for (const [key, value] of await readUserGitConfig(
          dir,
          names,
          timeoutMs,
          env,
        ))
          if (!found.get(key)) found.set(key, value);
      const name = found.get("user.name");
      const email = found.get("user.email");
      return name && email ? { name, email } : "env";
    })();
    return identity.then((value) => (value ? { identity: value } : {}));
  };
  const urls = new Map<string, Promise<string | null>>();
  const remoteUrl = (remote: string): Promise<string | null> => {
    let url = urls.get(remote);
    if (url === undefined) {
      url = exec(["remote", "get-url", remote]).then((r) =>
        r.ok ? r.stdout.trim() || null : null,
      );
      urls.set(remote, url);
    }
    return url;
  };
  let userCredentials: Promise<NonNullable<GitCredentials["user"]>> | undefined;
  const network = async (remote: string): Promise<Extra> => {
    if (!trusted) return {};
    if (options.credentials === "helper") {
      userCredentials ??= readUserGitConfig(
        dir,
        /^(credential\..*\.?helper|core\.sshcommand)$/.source,
        timeoutMs,
        env,
      ).then((entries) => ({
        helpers: entries.filter(([key]) => key.startsWith("credential.")),
        sshCommand:
          entries.findLast(([key]) => key === "core.sshcommand")?.[1] ?? null,
      }));
      return { remote, credentials: { user: await userCredentials } };
    }
    const url = await remoteUrl(remote);
    const token = url?.startsWith("https://")
      ? (options.githubToken?.() ?? null)
      : null;
    return {
      remote,
      credentials: {
        secretConfig: planGitHubAuth(url, token, options.githubHosts ?? []),
      },
    };
  };
  const failure = (
    args: string[],
    r: { code: unknown; stdout: string; stderr: string },
  ) =>
    new GitCommandError(
      args,
      gitMessage(
        `${r.stderr}\n${r.stdout}`.trim() ||
          `git ${args[0] ?? ""} exited with status ${String(r.code)}`,
      ),
    );
  const run = async (args: string[], extra: Extra = {}): Promise<string> => {
    const r = await exec(args, extra);
    if (!r.ok) throw failure(args, r);
    return r.stdout;
  };
  const quiet = async (args: string[]): Promise<boolean> => {
    try {
      await run(args);
      return true;
    } catch {
      return false;
    }
  };
  const refs = async (names: readonly string[]): Promise<RefSnapshot> => {
    // `%(worktreepath)` names the working tree that has a branch checked out: the question parallel sessions ask
    // before moving a branch, answered here instead of by a `git worktree list` of its own.
    const out = await run([
      "for-each-ref",
      "--format=%(HEAD)%00%(objectname)%00%(refname)%00%(symref)%00%(worktreepath)",
      ...names,
    ]);
    const wanted = new Set(names);
    const sha = new Map<string, string>();
    const symref = new Map<string, string>();
    const elsewhere = new Map<string, string>();
    let head: string | null = null;
    let here: string | null | undefined;
    for (const line of out.split("\n")) {
      const [mark, object, name, target, tree] = line.split("\0");
      // A pattern also matches refs below it (`refs/heads/main/x`); only exact names count.
      if (name === undefined || object === undefined || !wanted.has(name))
        continue;
      sha.set(name, object);
      if (target) symref.set(name, target);
      if (mark === "*") head = name;
      else if (tree) {
        here ??= realOrNull(dir);
        if (realOrNull(tree) !== here) elsewhere.set(name, tree);
      }
    }
    return { sha, symref, head, elsewhere };
  };
  const pushRefspec = async (
    rest: string[],
  ): Promise<{ status: "pushed" | "up-to-date"; summary: string }> => {
    const args = ["push", "--porcelain", ...rest];
    const to = rest.at(-1)?.replace(/^.*:/, ":") ?? ":";
    const r = await exec(args, await network(rest[0] ?? ""));
    // One line per ref: `<flag>\t<from>:<to>\t<summary>`; `!` rejected, `=` up to date.
    const line = r.stdout.split("\n").find((l) => l.includes(`${to}\t`));
    const [flag, , summary = ""] = line?.split("\t") ?? [];
    if (flag === "!")
      throw new PushRejected(args, `${summary} ${gitMessage(r.stderr)}`.trim());
    if (!r.ok || flag === undefined) throw failure(args, r);
    return {
      status: flag === "=" ? "up-to-date" : "pushed",
      summary: summary.replace(/^\[(.*)\]$/, "$1"),
    };
  };
  return {
    spawned: () => spawned,
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
      const status = parseStatusV2Z(
        await run([
          "status",
          "--porcelain=v2",
          "--branch",
          "--no-ahead-behind",
          "-z",
          "--untracked-files=all",
        ]),
      );
      // A sandbox's mount points (while the agent's sandboxed command runs) are not work to commit.
      return {
        ...status,
        entries: status.entries.filter(
          (e) => !(e.index === "?" && isPlaceholderOnDisk(dir, e.path)),
        ),
      };
    },
    async addAll(paths) {
      // Literal: a file named `*.ts` or `:(glob)x` stages that file, never what the pattern would match.
      if (paths.length > 0)
        await run(["--literal-pathspecs", "add", "--all", "--", ...paths]);
    },
    async commit(message) {
      const args = ["commit", "-m", message];
      const r = await exec(args, await commitIdentity());
      if (!r.ok) {
        // Nothing staged (a change written back to what HEAD has): asked of git, since its words follow the locale.
        if (await quiet(["diff", "--cached", "--quiet", "--no-ext-diff"]))
          return null;
        throw failure(args, r);
      }
      // The summary line names the commit (`[branch 1a2b3c4] message`), which saves a `rev-parse HEAD`.
      const sha = /^\[[^\]]*?\b([0-9a-f]{7,64})\]/m.exec(r.stdout)?.[1];
      return sha ?? (await run(["rev-parse", "--short", "HEAD"])).trim();
    },
    remoteUrl,
    refs,
    push(remote, branch) {
      const ref = `refs/heads/${branch}`;
      return pushRefspec([remote, `${ref}:${ref}`]);
    },
    pushCommit: (remote, commit, branch) =>
      pushRefspec([remote, `${commit}:refs/heads/${branch}`]),
    async updateRef(ref, commit, expected) {
      return (await exec(["update-ref", ref, commit, expected])).ok;
    },
    async deleteRemoteBranch(remote, branch) {
      const args = ["push", "--porcelain", remote, "--delete", branch];
      const r = await exec(args, await network(remote));
      if (r.ok) return "deleted";
      if (/remote ref does not exist/.test(r.stderr)) return "missing";
      throw failure(args, r);
    },
    async fetch(remote, branch) {
      const args = [
        "fetch",
        "--quiet",
        remote,
        `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`,
      ];
      const r = await exec(args, await network(remote));
      if (r.ok) return true;
      if (/couldn't find remote ref/.test(r.stderr)) return false;
      throw failure(args, r);
    },
    async move(from, to) {
      await run(["mv", "--", from, to]);
    },
    existsAt: (ref, path) => quiet(["cat-file", "-e", `${ref}:${path}`]),
    async additionsSince(base) {
      const r = await exec([
        "-c",
        "core.quotePath=false",
        "log",
        "-p",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-renames",
        // Each commit's name before its patch: a finding names the commit that added the line.
        "--format=%H",
        "-U0",
        `${base}..HEAD`,
        "--",
      ]);
      if (!r.ok) {
        if (/unknown revision|bad revision/i.test(r.stderr)) return null;
        throw failure(["log", "-p", `${base}..HEAD`], r);
      }
      return additionsOfPatch(r.stdout);
    },
    isAncestor: (ancestor, of) =>
      quiet(["merge-base", "--is-ancestor", ancestor, of]),
    async switchTo(branch) {
      await run(["switch", "--quiet", branch]);
    },
    async switchDetached(commit) {
      await run(["switch", "--quiet", "--detach", commit]);
    },
    async mergeNoFf(branch, message) {
      await run(
        [
          "-c",
          "merge.conflictStyle=diff3",
          "merge",
          "--no-ff",
          "--no-edit",
          "-m",
          message,
          branch,
        ],
        await commitIdentity(),
      );
    },
    async mergeFfOnly(ref) {
      await run(["merge", "--ff-only", "--quiet", ref]);
    },
    async abortMerge() {
      await quiet(["merge", "--abort"]);
    },
    async localDefaultBranch(remote) {
      const originHead = `refs/remotes/${remote}/HEAD`;
      const found = await refs([
        originHead,
        "refs/heads/main",
        "refs/heads/master",
      ]);
      const prefix = `refs/remotes/${remote}/`;
      const target = found.symref.get(originHead);
      if (target?.startsWith(prefix)) return target.slice(prefix.length);
      for (const name of ["main", "master"])
        if (found.sha.has(`refs/heads/${name}`)) return name;
      return null;
    },
  };
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
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

/** `git config -z --get-regexp` output: `key\nvalue\0` per entry. */
function parseConfigList(text: string): [string, string][] {
  return text
    .split("\0")
    .filter((entry) => entry !== "")
    .map((entry) => {
      const at = entry.indexOf("\n");
      return at < 0 ? [entry, ""] : [entry.slice(0, at), entry.slice(at + 1)];
    });
}
