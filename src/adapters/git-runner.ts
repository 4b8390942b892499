import type { ChildProcessByStdio, SpawnSyncReturns } from "node:child_process";
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { childTimeoutMs } from "./process-deadline.ts";

/** `os.devNull`, without loading node:os on the hook's path. */
const devNull = process.platform === "win32" ? "\\\\.\\nul" : "/dev/null";

/** Set in every hook process, and so in the jobs it starts: git runs there on the agent's behalf. */
export const HOOK_PROCESS_ENV = "PLAYBOOK_HOOK_PROCESS";

/**
 * What a git process may read, and whose it is (docs/trust-boundary.md, "Git that runs nothing").
 *
 * - `read`: a question about the tree (a fingerprint, a status, a listing). Always reads only the repository's own
 *   configuration, never a system, global or XDG one, whoever runs it: the answer must be the same in the hook, in
 *   a job and in a person's terminal, and the agent's Write tool could have written the user's files.
 * - `act`: git changes something (commit, push, switch, merge). In a trusted process it reads what `read` reads, runs
 *   no program any configuration names, and gets the user's identity and credentials only as `identity` and
 *   `credentials` pass them. In a person's terminal it is the user's own git, with their hooks and settings.
 */
export type GitPurpose = "read" | "act";

/**
 * `-c` settings that win over every configuration file and name no program: no git hooks, no fsmonitor, no editor,
 * pager, askpass, proxy command or signing program, no external diff, no transport but git's own (no `ext::`, no
 * remote helper), no automatic maintenance started in the background. `false` is the program that does nothing.
 * The credential helpers are reset in the environment instead (see `gitInvocation`), where a helper the user opts in
 * to can follow the reset.
 */
export const NO_PROGRAMS: readonly string[] = /* @__PURE__ */ [
  `core.hooksPath=${devNull}`,
  "core.fsmonitor=false",
  "core.editor=false",
  "sequence.editor=false",
  "core.pager=cat",
  "core.askPass=",
  "core.gitProxy=",
  "core.alternateRefsCommand=",
  "diff.external=",
  "gpg.program=false",
  "gpg.openpgp.program=false",
  "gpg.x509.program=false",
  "gpg.ssh.program=false",
  "gpg.ssh.defaultKeyCommand=",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "tag.forceSignAnnotated=false",
  "push.gpgSign=false",
  "log.showSignature=false",
  "merge.verifySignatures=false",
  "protocol.allow=never",
  "protocol.file.allow=always",
  "protocol.git.allow=always",
  "protocol.ssh.allow=always",
  "protocol.http.allow=always",
  "protocol.https.allow=always",
  "submodule.recurse=false",
  "fetch.recurseSubmodules=false",
  "push.recurseSubmodules=no",
  "gc.auto=0",
  "maintenance.auto=false",
].flatMap((setting) => ["-c", setting]);

/** ssh without its configuration files, whose `ProxyCommand`, `Match exec` and `LocalCommand` run programs. */
export const PLAIN_SSH = `ssh -F ${devNull} -o BatchMode=yes`;

/** Variables that change what git reads or runs: none of them passes to a hardened git. */
const GIT_STEERING =
  /^(?:GIT_|SSH_ASKPASS|EDITOR$|VISUAL$|PAGER$|LESS$|XDG_CONFIG_HOME$)/;

/** Identity variables a person's environment may set on purpose (kept when `identity` says so). */
const IDENTITY = [
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
];

/** Certificate authorities for https: files, no program (kept for `act`, which may reach a remote). */
const CERTIFICATES = ["GIT_SSL_CAINFO", "GIT_SSL_CAPATH"];

export interface GitCall {
  cwd: string;
  args: readonly string[];
  purpose: GitPurpose;
  /** Milliseconds before git is killed: what is left of the caller's deadline, never more. */
  timeoutMs: number;
  input?: string;
  /**
   * For `read`: the index git reads instead of the repository's (`GIT_INDEX_FILE`), an absolute path. The tree's
   * fingerprint lists changes against playbook's own index in the runtime folder (adapters/tree-fingerprint.ts).
   */
  indexFile?: string;
  /**
   * For `act` in a trusted process, who commits: `user.name` and `user.email` passed as `-c`, or `env` to keep the
   * environment's `GIT_AUTHOR_*`/`GIT_COMMITTER_*`. Without it, the repository's own `user.*` settings apply.
   */
  identity?: { name: string; email: string } | "env";
  /**
   * For `act` that reaches a remote (push, fetch, ls-remote): its name. The remote side's program is then git's own
   * (`--receive-pack`, `--upload-pack`), whatever `remote.<name>.receivepack`/`uploadpack` say.
   */
  remote?: string;
  /** For `act` that reaches a remote: how git may authenticate (docs/archive.md). */
  credentials?: GitCredentials;
  /** The environment to start from (tests); the process's own by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface GitCredentials {
  /** Settings passed in the environment, never on argv: the archive's auth header for GitHub. */
  secretConfig?: readonly (readonly [key: string, value: string])[];
  /**
   * The user's own credentials (`archive.gitCredentials: "helper"`), read as plain values from their global
   * configuration: their credential helpers (`credential.helper`, `credential.<url>.helper`) and `core.sshCommand`;
   * ssh then reads its configuration files too. Absent: no helper runs and ssh reads none.
   */
  user?: {
    helpers: readonly (readonly [key: string, value: string])[];
    sshCommand: string | null;
  };
}

/** Whether this process runs outside the agent's sandbox on the agent's behalf (the hook and its jobs). */
export function isTrustedProcess(
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return env[HOOK_PROCESS_ENV] === "1";
}

/**
 * The repository git finds from a folder, read as git reads it without starting git: the nearest `.git` above it,
 * the git folder that names (a linked worktree's `.git` file points at one) and the common folder (a linked
 * worktree's `commondir`). The configuration files it holds, and why they cannot be trusted, if so.
 */
export interface RepositoryLayout {
  gitDir: string;
  commonDir: string;
  /** Whether objects are named by SHA-256 (`extensions.objectFormat`), else SHA-1. */
  sha256: boolean;
  /** Why git's settings here cannot be read by a trusted process (see `describeRefusal`), or null. */
  refused: SettingsRefusal | null;
}

/** A line of git's settings a trusted git does not read past: an include, or a setting in a file the agent can write. */
export interface SettingsRefusal {
  file: string;
  line: string;
  why: "include" | "agent-writable" | "too-large";
}

/** What a refused repository's settings tell the user: the file, the line, and the next step. */
export function describeRefusal({ file, line, why }: SettingsRefusal): string {
  if (why === "too-large")
    return `${file} is larger than the 1 MiB playbook's git reads, so its settings cannot be checked. Next: shrink it to the settings the repository needs, then try again.`;
  return why === "include"
    ? `${file} includes another file (${line}), which playbook's git does not read: the agent's file tools may have written it. Next: copy the settings you need into ${file} and remove the include, then try again.`
    : `${file} holds \`${line}\`, and the agent's shell can write that file. Next: move the setting into .git/config (or remove it), then try again.`;
}

/**
 * The nearest `.git` at or above `cwd` (a folder, or a linked worktree's file): where git's search stops. Null when
 * there is none, which is the only case where "not a git repository" means there is no repository to read.
 */
export function findDotGit(
  cwd: string,
): { dir: string; path: string; folder: boolean } | null {
  for (let dir = resolve(cwd); ;) {
    const path = join(dir, ".git");
    try {
      return { dir, path, folder: statSync(path).isDirectory() };
    } catch {
      const parent = resolve(dir, "..");
      if (parent === dir) return null;
      dir = parent;
    }
  }
}

/**
 * Finds the repository of `cwd` (null outside any, or behind a `.git` file that names no folder) and checks its
 * settings. git itself would also read a `commondir` file in a main worktree's `.git`, a file the agent's shell may
 * write: the runner pins the common folder instead (`GIT_COMMON_DIR`), so only a linked worktree's, which lies outside
 * the project, is read.
 */
export function readRepositoryLayout(cwd: string): RepositoryLayout | null {
  const found = findDotGit(cwd);
  if (found === null) return null;
  let gitDir = found.path;
  let commonDir = found.path;
  if (!found.folder) {
    const target = /^gitdir: *(.+)$/m.exec(readText(found.path) ?? "")?.[1];
    if (!target) return null;
    gitDir = resolve(found.dir, target.trim());
    const common = readText(join(gitDir, "commondir"))?.trim();
    commonDir = common ? resolve(gitDir, common) : gitDir;
  }
  const config = readText(join(commonDir, "config")) ?? "";
  if (Buffer.byteLength(config) > MAX_SETTINGS_BYTES)
    return {
      gitDir,
      commonDir,
      sha256: false,
      refused: { file: join(commonDir, "config"), line: "", why: "too-large" },
    };
  return {
    gitDir,
    commonDir,
    sha256: /^\s*objectformat\s*=\s*sha256\s*$/im.test(config),
    refused: settingsProblem(
      config,
      gitDir,
      commonDir,
      found.folder && found.dir === resolve(cwd),
    ),
  };
}

/**
 * Why a trusted git must not read the repository's settings, or null. An include pulls in a file anyone may have
 * written (the agent's file tools reach most of the disk), so a configuration with one is not read at all. A main
 * worktree's `config.worktree` (read when `extensions.worktreeConfig` is on) lies in `.git`, where the agent's
 * sandbox keeps only `config` and `hooks` read-only: it may hold the sparse-checkout switches git writes there and
 * nothing else.
 */
function settingsProblem(
  config: string,
  gitDir: string,
  commonDir: string,
  ownDotGit: boolean,
): SettingsRefusal | null {
  const configFile = join(commonDir, "config");
  const files: [string, string][] = [[configFile, config]];
  if (/^\s*worktreeconfig\s*(?:=\s*(?:true|yes|on|1)\s*)?$/im.test(config)) {
    const worktreeFile = join(gitDir, "config.worktree");
    const text = readText(worktreeFile);
    if (text !== null) {
      files.push([worktreeFile, text]);
      const other = ownDotGit
        ? text
            .split("\n")
            .map((line) => line.trim())
            .find(
              (line) =>
                !/^(?:$|[#;]|\[(?:core|index)\]$|(?:sparsecheckout|sparsecheckoutcone|sparse) *= *\w+$)/i.test(
                  line,
                ),
            )
        : undefined;
      if (other !== undefined)
        return { file: worktreeFile, line: other, why: "agent-writable" };
    }
  }
  for (const [file, text] of files) {
    const include = /^\s*\[\s*include.*$/im.exec(text)?.[0];
    if (include !== undefined)
      return { file, line: include.trim(), why: "include" };
  }
  return null;
}

/** The argv and environment a git call runs with (exported for its tests). */
export function gitInvocation(
  call: GitCall,
  layout: RepositoryLayout | null = null,
): { args: string[]; env: Record<string, string> } {
  const base = call.env ?? process.env;
  const hardened = call.purpose === "read" || isTrustedProcess(base);
  if (!hardened)
    return {
      args: [...call.args],
      env: definedOnly({ ...base, GIT_TERMINAL_PROMPT: "0" }),
    };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base))
    if (value !== undefined && !GIT_STEERING.test(key)) env[key] = value;
  const acts = call.purpose === "act";
  const kept = [
    ...(acts ? CERTIFICATES : []),
    ...(acts && call.identity === "env" ? IDENTITY : []),
  ];
  for (const key of kept) {
    const value = base[key];
    if (value) env[key] = value;
  }
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_SYSTEM: devNull,
    GIT_CONFIG_GLOBAL: devNull,
    // The default ignore and attributes files live under XDG_CONFIG_HOME (else ~/.config): read neither.
    XDG_CONFIG_HOME: devNull,
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
    ...(layout ? { GIT_COMMON_DIR: layout.commonDir } : {}),
    ...(call.indexFile && !acts ? { GIT_INDEX_FILE: call.indexFile } : {}),
  });
  // Read after every file and before the -c settings: the reset empties the helpers the files named.
  const user = acts ? call.credentials?.user : undefined;
  const environmentConfig: (readonly [string, string])[] = [
    ["credential.helper", ""],
    ...(user?.helpers ?? []),
    ...((acts && call.credentials?.secretConfig) || []),
  ];
  env["GIT_CONFIG_COUNT"] = String(environmentConfig.length);
  environmentConfig.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  const ssh = user ? (user.sshCommand ?? "ssh -o BatchMode=yes") : PLAIN_SSH;
  const identity =
    acts && typeof call.identity === "object"
      ? [
          "-c",
          `user.name=${call.identity.name}`,
          "-c",
          `user.email=${call.identity.email}`,
        ]
      : [];
  return {
    args: [
      ...NO_PROGRAMS,
      "-c",
      `core.sshCommand=${ssh}`,
      ...identity,
      ...(acts && call.remote ? withGitPrograms(call.args) : call.args),
    ],
    env,
  };
}

/**
 * The arguments with the remote side's program named on the command line: `remote.<name>.uploadpack` and
 * `receivepack` take the first value git reads, the repository's file before any `-c`, so only the option outranks
 * them. Over a local path git runs that program itself, through the shell.
 */
function withGitPrograms(args: readonly string[]): string[] {
  const at = commandAt(args);
  const command = args[at];
  const pinned =
    command === "push"
      ? "--receive-pack=git-receive-pack"
      : command === "fetch" || command === "ls-remote" || command === "pull"
        ? "--upload-pack=git-upload-pack"
        : null;
  return pinned === null
    ? [...args]
    : [...args.slice(0, at + 1), pinned, ...args.slice(at + 1)];
}

/** Where git's command is in its arguments: after the `-c` settings. */
function commandAt(args: readonly string[]): number {
  let at = 0;
  while (args[at] === "-c") at += 2;
  return at;
}

/** What a call that ran out of time tells: which git command, and how long it had. */
function timedOutMessage(call: GitCall): string {
  return `git ${call.args[commandAt(call.args)] ?? ""} did not finish within ${call.timeoutMs} ms`;
}

export interface GitResult {
  /** Exit status; null when git did not start, was killed, ran out of time, or was not started (`refused`). */
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * The invocation of a call, or why it is not started: a hardened git first checks the repository's settings (see
 * `readRepositoryLayout`).
 */
function prepare(
  call: GitCall,
):
  | { args: string[]; env: Record<string, string> }
  | { refused: SettingsRefusal } {
  const base = call.env ?? process.env;
  const hardened = call.purpose === "read" || isTrustedProcess(base);
  const layout = hardened ? readRepositoryLayout(call.cwd) : null;
  if (layout?.refused) return { refused: layout.refused };
  return gitInvocation(call, layout);
}

/** A call not started because the process's deadline has passed (adapters/process-deadline.ts). */
function outOfTime(call: GitCall): GitResult {
  return {
    status: null,
    stdout: "",
    stderr: timedOutMessage(call),
    timedOut: true,
  };
}

/** Runs git and waits (the hook's synchronous steps). */
export function runGitSync(call: GitCall): GitResult {
  const prepared = prepare(call);
  if ("refused" in prepared)
    return refusedResult(describeRefusal(prepared.refused));
  const timeout = childTimeoutMs(call.timeoutMs);
  if (timeout <= 0) return outOfTime(call);
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result: SpawnSyncReturns<string> = spawnSync("git", prepared.args, {
    cwd: call.cwd,
    env: prepared.env,
    encoding: "utf8",
    input: call.input,
    timeout,
    maxBuffer: 1 << 30,
    windowsHide: true,
  });
  const timedOut =
    (result.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  return {
    status: result.error ? null : result.status,
    stdout: result.stdout ?? "",
    stderr: timedOut
      ? timedOutMessage(call)
      : result.error
        ? result.error.message
        : (result.stderr ?? ""),
    timedOut,
  };
}

/** Runs git without blocking (the archive, jobs). */
export function runGit(call: GitCall): Promise<GitResult> {
  const prepared = prepare(call);
  if ("refused" in prepared)
    return Promise.resolve(refusedResult(describeRefusal(prepared.refused)));
  const timeout = childTimeoutMs(call.timeoutMs);
  if (timeout <= 0) return Promise.resolve(outOfTime(call));
  const { execFile } = process.getBuiltinModule("node:child_process");
  return new Promise((resolve) => {
    const child = execFile(
      "git",
      prepared.args,
      {
        cwd: call.cwd,
        env: prepared.env,
        encoding: "utf8",
        timeout,
        maxBuffer: 256 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const timedOut =
          error !== null && (error as { killed?: boolean }).killed === true;
        resolve({
          status: error
            ? typeof error.code === "number"
              ? error.code
              : null
            : 0,
          stdout,
          stderr: timedOut
            ? timedOutMessage(call)
            : stderr ||
              (error && typeof error.code !== "number" ? error.message : ""),
          timedOut,
        });
      },
    );
    if (call.input !== undefined) child.stdin?.end(call.input);
  });
}

/**
 * Starts git with its stdout as a stream (a listing read while other work goes on); null when it is not started
 * (the repository's settings cannot be trusted: a `runGitSync` of the same call says why).
 */
export function startGit(
  call: Omit<GitCall, "input">,
): ChildProcessByStdio<null, Readable, null> | null {
  const prepared = prepare(call);
  if ("refused" in prepared) return null;
  const timeout = childTimeoutMs(call.timeoutMs);
  if (timeout <= 0) return null;
  const { spawn } = process.getBuiltinModule("node:child_process");
  return spawn("git", prepared.args, {
    cwd: call.cwd,
    env: prepared.env,
    stdio: ["ignore", "pipe", "ignore"],
    timeout,
    windowsHide: true,
  });
}

/**
 * Values of the user's global git configuration (`~/.gitconfig`, `~/.config/git/config`) whose names match
 * `pattern`, read as plain text (`git config --global --no-includes`, which runs no program): the identity a
 * trusted process commits with when the repository names none, and the credential helpers a user opts in to.
 */
export function readUserGitConfig(
  cwd: string,
  pattern: string,
  timeoutMs: number,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<[key: string, value: string][]> {
  const { execFile } = process.getBuiltinModule("node:child_process");
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (value !== undefined && !/^GIT_(?!CONFIG_GLOBAL$)/.test(key))
      clean[key] = value;
  clean["GIT_CONFIG_NOSYSTEM"] = "1";
  return new Promise((resolve) => {
    execFile(
      "git",
      [
        ...NO_PROGRAMS,
        "config",
        "--global",
        "--no-includes",
        "-z",
        "--get-regexp",
        pattern,
      ],
      {
        cwd,
        env: clean,
        encoding: "utf8",
        timeout: Math.max(1, timeoutMs),
        windowsHide: true,
      },
      (error, stdout) => {
        if (error) return resolve([]);
        resolve(
          stdout
            .split("\0")
            .filter((entry) => entry !== "")
            .map((entry) => {
              const at = entry.indexOf("\n");
              return at < 0
                ? [entry, ""]
                : [entry.slice(0, at), entry.slice(at + 1)];
            }),
        );
      },
    );
  });
}

function refusedResult(message: string): GitResult {
  return { status: null, stdout: "", stderr: message, timedOut: false };
}

/** The most of a git settings or pointer file the runner reads: a larger settings file is refused, not half read. */
const MAX_SETTINGS_BYTES = 1 << 20;

/**
 * A git settings or pointer file, read no further than one byte past `MAX_SETTINGS_BYTES` (so a larger one shows as
 * such): null when unreadable.
 */
function readText(path: string): string | null {
  try {
    const { openSync, fstatSync, readSync, closeSync } =
      process.getBuiltinModule("node:fs");
    const fd = openSync(path, "r");
    try {
      const size = Math.min(fstatSync(fd).size, MAX_SETTINGS_BYTES + 1);
      const buffer = Buffer.alloc(size);
      const read = readSync(fd, buffer, 0, size, 0);
      return buffer.toString("utf8", 0, read);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

function definedOnly(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (value !== undefined) out[key] = value;
  return out;
}
