import type { ChildProcessByStdio, SpawnSyncReturns } from "node:child_process";
import { devNull } from "node:os";
import type { Readable } from "node:stream";

/** Set in every hook process, and so in the jobs it starts: git runs there on the agent's behalf. */
export const HOOK_PROCESS_ENV = "PLAYBOOK_HOOK_PROCESS";

/**
 * What a git process may read, and whose it is (docs/trust-boundary.md, "Git that runs nothing").
 *
 * - `read`: a question about the tree (a fingerprint, a status, a listing). Always reads only the repository's own
 *   configuration, never a system, global or XDG one, whoever runs it: the answer must be the same in the hook, in
 *   a job and in a person's terminal, and the agent's Write tool could have written the user's files.
 * - `act`: git changes something (commit, push, switch, merge). In a trusted process it reads what `read` reads, runs
 *   no program any configuration names, and gets the user's identity and credentials only as `withIdentity` and
 *   `credentials` pass them. In a person's terminal it is the user's own git, with their hooks and settings.
 */
export type GitPurpose = "read" | "act";

/**
 * `-c` settings that win over every configuration file and name no program: no git hooks, no fsmonitor, no editor,
 * pager, askpass, ssh wrapper, proxy, credential helper or signing program, no external diff, no `ext::` transport,
 * no automatic maintenance started in the background.
 */
export const NO_PROGRAMS: readonly string[] = [
  `core.hooksPath=${devNull}`,
  "core.fsmonitor=false",
  "core.editor=false",
  "sequence.editor=false",
  "core.pager=cat",
  "core.askPass=",
  "core.sshCommand=ssh -o BatchMode=yes",
  "core.gitProxy=",
  "core.alternateRefsCommand=",
  "credential.helper=",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "push.gpgSign=false",
  "diff.external=",
  "protocol.ext.allow=never",
  "gc.auto=0",
  "maintenance.auto=false",
  "submodule.recurse=false",
].flatMap((setting) => ["-c", setting]);

/** Environment variables that change what git reads or runs: none of them passes to a trusted git. */
const GIT_STEERING = /^(?:GIT_|SSH_ASKPASS$|EDITOR$|VISUAL$|PAGER$|LESS$)/;

/** Identity variables a person's environment may set on purpose (kept for `act` with `withIdentity`). */
const IDENTITY = [
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
];

export interface GitCall {
  cwd: string;
  args: readonly string[];
  purpose: GitPurpose;
  /** Milliseconds before git is killed: what is left of the caller's deadline, never more. */
  timeoutMs: number;
  input?: string;
  /** For `act`: the commit identity (`user.name`, `user.email`), passed as `-c`. */
  identity?: { name: string; email: string } | null;
  /** For `act` over the network: extra settings (an auth header) passed in the environment, never on argv. */
  secretConfig?: readonly [key: string, value: string][];
  /** The environment to start from (tests); the process's own by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Whether this process runs outside the agent's sandbox on the agent's behalf (the hook and its jobs). */
export function isTrustedProcess(
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return env[HOOK_PROCESS_ENV] === "1";
}

/** The argv and environment a git call runs with (exported for its tests). */
export function gitInvocation(call: GitCall): {
  args: string[];
  env: Record<string, string>;
} {
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
  if (call.purpose === "act")
    for (const key of IDENTITY) {
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
  });
  const secrets = call.secretConfig ?? [];
  if (secrets.length > 0) {
    env["GIT_CONFIG_COUNT"] = String(secrets.length);
    secrets.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
  }
  const identity =
    call.purpose === "act" && call.identity
      ? [
          "-c",
          `user.name=${call.identity.name}`,
          "-c",
          `user.email=${call.identity.email}`,
        ]
      : [];
  return { args: [...NO_PROGRAMS, ...identity, ...call.args], env };
}

export interface GitResult {
  /** Exit status; null when git did not start, was killed, or ran out of time. */
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs git and waits (the hook's synchronous steps). */
export function runGitSync(call: GitCall): GitResult {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const { args, env } = gitInvocation(call);
  const result: SpawnSyncReturns<string> = spawnSync("git", args, {
    cwd: call.cwd,
    env,
    encoding: "utf8",
    input: call.input,
    timeout: Math.max(1, call.timeoutMs),
    maxBuffer: 1 << 30,
    windowsHide: true,
  });
  const timedOut =
    (result.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  return {
    status: result.error ? null : result.status,
    stdout: result.stdout ?? "",
    stderr:
      result.error && !timedOut ? result.error.message : (result.stderr ?? ""),
    timedOut,
  };
}

/** Runs git without blocking (the archive, jobs). */
export function runGit(call: GitCall): Promise<GitResult> {
  const { execFile } = process.getBuiltinModule("node:child_process");
  const { args, env } = gitInvocation(call);
  return new Promise((resolve) => {
    const child = execFile(
      "git",
      args,
      {
        cwd: call.cwd,
        env,
        encoding: "utf8",
        timeout: Math.max(1, call.timeoutMs),
        maxBuffer: 256 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const killed = error !== null && (error as { killed?: boolean }).killed;
        resolve({
          status: error
            ? typeof error.code === "number"
              ? error.code
              : null
            : 0,
          stdout,
          stderr:
            stderr ||
            (error && typeof error.code !== "number" ? error.message : ""),
          timedOut: Boolean(killed),
        });
      },
    );
    if (call.input !== undefined) child.stdin?.end(call.input);
  });
}

/** Starts git with its stdout as a stream (a listing read while other work goes on). */
export function startGit(
  call: Omit<GitCall, "input">,
): ChildProcessByStdio<null, Readable, null> {
  const { spawn } = process.getBuiltinModule("node:child_process");
  const { args, env } = gitInvocation(call);
  return spawn("git", args, {
    cwd: call.cwd,
    env,
    stdio: ["ignore", "pipe", "ignore"],
    timeout: Math.max(1, call.timeoutMs),
    windowsHide: true,
  });
}

function definedOnly(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (value !== undefined) out[key] = value;
  return out;
}
