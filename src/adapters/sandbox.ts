import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { WRITE_GUARDED_PATHS } from "../core/paths/trust-paths.ts";
import type { SandboxReach } from "../core/records/sandbox-refusal.ts";
import { withAgentPath } from "./trusted-path-env.ts";
import { dependencyLinkTargets } from "./dependency-links.ts";
import {
  keptCacheDir,
  toolchainCaches,
  toShellExports,
} from "./toolchain-caches.ts";

/** What a validation command may touch besides the project (`verify` in `.claude/playbook.json`). */
export interface SandboxPolicy {
  root: string;
  /** Hosts the command may reach (srt's `network.allowedDomains`); empty: none, only the sandbox's own loopback. */
  allowedDomains: readonly string[];
  /** Extra folders it may write (absolute, or `~/...`). */
  allowWrite: readonly string[];
  /** Absolute folders it may read even where the sandbox hides their parent (a clean checkout's linked dependencies). */
  allowRead?: readonly string[];
  /** Absolute folders it may not read, except what it writes and `allowRead` (a clean checkout's project). */
  hide?: readonly string[];
  /**
   * Use the tool caches playbook keeps for validations from one run to the next (`verify`); without it every cache
   * starts empty, as a re-proof needs: nothing an earlier run left may count (toolchain-caches.ts).
   */
  keepCaches?: boolean;
  /** The installed playbook-kit, write-protected when it sits inside the project (node_modules, a link). */
  packageRoot: string | null;
  /** More paths kept read-only (relative to `root`, or absolute): what Claude Code's settings add for the agent. */
  denyWrite?: readonly string[];
  /**
   * The caller handles Ctrl-C and SIGTERM: it kills its wrapped commands, then calls `cleanup` and `close`. srt's
   * own handlers are then removed: they reset the sandbox (its mount points, its network bridges) while the commands
   * still run, and as listeners they keep the process from exiting, so the commands ran on to their end.
   */
  interruptible?: boolean;
}

export type Sandbox =
  | {
      ok: true;
      /** The shell command that runs `command` inside the sandbox. */
      wrap: (command: string) => Promise<string>;
      /** After each wrapped command: removes the mount points srt made for paths that did not exist. */
      cleanup: () => void;
      /** What the sandbox refused the last wrapped command that it saw itself: connections to hosts not allowed. */
      refusals: () => string[];
      close: () => Promise<void>;
      warnings: string[];
      reach: SandboxReach;
    }
  | { ok: false; why: string; next: string };

/**
 * The paths a validation must not write, whatever it is (docs/guards.md): the trust paths (records, grants, locks,
 * the configuration with the security mode, the agents, the hook loader, playbook itself), Claude Code's settings,
 * which wire the hooks, and git's own folder (hooks, config, refs, what `.git/info/exclude` hides from the
 * fingerprint). Folders cover everything inside them.
 */
function protectedPaths(root: string, packageRoot: string | null): string[] {
  const paths = WRITE_GUARDED_PATHS.map((p) => join(root, p));
  if (packageRoot !== null) {
    const rel = relative(root, packageRoot);
    // Installed inside the project under another name (a link, a workspace): protect where it really is. Not when
    // the project is playbook-kit itself.
    if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel))
      paths.push(packageRoot);
  }
  return paths;
}

function expandHome(path: string, home: string): string {
  return path === "~" || path.startsWith("~/")
    ? join(home, path.slice(2))
    : path;
}

/** The folder of kept caches, made if need be; null (caches of the run's own) when it cannot be made. */
function makeKeptCacheDir(env: NodeJS.ProcessEnv, home: string): string | null {
  const dir = keptCacheDir(env, home);
  try {
    mkdirSync(dir, { recursive: true });
    return realpathSync(dir);
  } catch {
    return null;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Starts the OS sandbox of `@anthropic-ai/sandbox-runtime` (bubblewrap on Linux, sandbox-exec on macOS) for one run
 * of validations, or says why it cannot run here and what to install. Loaded only when called: the runtime is a
 * separate chunk of the CLI, never on the hook's path.
 */
export async function startSandbox(policy: SandboxPolicy): Promise<Sandbox> {
  if (process.platform === "win32")
    return {
      ok: false,
      why: "native Windows has no sandbox playbook can run validations in",
      next: "run Claude Code and playbook inside WSL 2 (then: apt-get install bubblewrap socat ripgrep)",
    };
  if (process.platform !== "linux" && process.platform !== "darwin")
    return {
      ok: false,
      why: `${process.platform} has no sandbox playbook can run validations in`,
      next: "run playbook on Linux or macOS",
    };
  const install =
    process.platform === "darwin"
      ? "brew install ripgrep (macOS brings sandbox-exec)"
      : "apt-get install bubblewrap socat ripgrep (Debian/Ubuntu; dnf or pacman elsewhere)";
  const { SandboxManager } = await import("@anthropic-ai/sandbox-runtime");
  let deps: { errors: string[]; warnings: string[] };
  try {
    deps = SandboxManager.checkDependencies();
  } catch (error) {
    deps = { errors: [errorText(error)], warnings: [] };
  }
  if (deps.errors.length > 0)
    return { ok: false, why: deps.errors.join("; "), next: install };
  const home = homedir();
  const root = realOrSelf(policy.root);
  // A temp folder of the run's own: tools open unix sockets in TMPDIR (tsx, test runners' workers), and the host's
  // temp folder, where other programs keep theirs (tmux, ssh agents, Claude Code), stays out of reach.
  const hostTemp = realOrSelf(tmpdir());
  const tempDir = mkdtempSync(join(hostTemp, "playbook-verify-"));
  // srt points TMPDIR inside the sandbox at CLAUDE_CODE_TMPDIR.
  process.env["CLAUDE_CODE_TMPDIR"] = tempDir;
  // srt keeps its own files in this process's temp folder: the sockets of its network bridge, which every command
  // must reach, and what it mounts from. On Linux the host's temp folder is hidden (unixSocketPolicy), so they go to
  // a folder of their own that commands may read but not write.
  const ownTmpdir = process.env["TMPDIR"];
  const internal =
    process.platform === "linux"
      ? mkdtempSync(join(hostTemp, "playbook-srt-"))
      : null;
  if (internal !== null) process.env["TMPDIR"] = internal;
  const removeFolders = () => {
    if (internal !== null) {
      if (ownTmpdir === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = ownTmpdir;
      rmSync(internal, { recursive: true, force: true });
    }
    rmSync(tempDir, { recursive: true, force: true });
  };
  const extra = policy.allowWrite.map((p) =>
    resolve(root, expandHome(p, home)),
  );
  const allowed = [root, tempDir, ...extra].filter(
    (p) => p === root || p === tempDir || existsSync(p) || extra.includes(p),
  );
  const kept =
    policy.keepCaches === true ? makeKeptCacheDir(process.env, home) : null;
  const caches = toolchainCaches({
    env: process.env,
    home,
    platform: process.platform,
    root,
    tempDir,
    keptDir: kept,
    writable: allowed,
    offline: policy.allowedDomains.length === 0,
  });
  const writable = [...allowed, ...caches.writable];
  const guarded = [
    ...protectedPaths(root, policy.packageRoot),
    ...(policy.denyWrite ?? []).map((p) => resolve(root, p)),
  ];
  const sockets = unixSocketPolicy(home, tempDir, writable, internal);
  const hidden = (policy.hide ?? []).map(realOrSelf);
  if (hidden.length > 0) {
    sockets.denyRead.push(...hidden);
    // What the commands write lies inside the hidden project; on Linux it is readable already.
    sockets.allowRead.push(
      ...writable.filter((p) => !sockets.allowRead.includes(p)),
    );
  }
  sockets.allowRead.push(
    ...(policy.allowRead ?? []).map(realOrSelf),
    ...dependencyLinkTargets(root, sockets.denyRead),
    ...caches.readable
      .filter((p) => existsSync(p))
      .map(realOrSelf)
      .filter(
        (p) =>
          p !== home &&
          sockets.denyRead.some((hidden) => isInside(p, hidden)) &&
          !holdsAny(p, sockets.denyRead),
      ),
  );
  let last = "";
  let count = 0;
  const ownHandlers = policy.interruptible ? signalListeners() : null;
  try {
    await SandboxManager.initialize({
      network: {
        allowedDomains: [...policy.allowedDomains],
        deniedDomains: [],
        ...sockets.network,
      },
      filesystem: {
        denyRead: sockets.denyRead,
        ...(sockets.allowRead.length > 0
          ? { allowRead: sockets.allowRead }
          : {}),
        allowWrite: writable,
        denyWrite: guarded,
      },
    });
  } catch (error) {
    await SandboxManager.reset().catch(() => undefined);
    removeFolders();
    return { ok: false, why: errorText(error), next: install };
  } finally {
    if (ownHandlers !== null) removeListenersSince(ownHandlers);
  }
  return {
    ok: true,
    wrap: (command) => {
      last = `playbook-verify-${process.pid}-${++count}`;
      return SandboxManager.wrapWithSandbox(
        withAgentPath(`${toShellExports(caches.env)}${command}`),
        undefined,
        undefined,
        undefined,
        { commandId: last, commandText: command },
      );
    },
    cleanup: () => SandboxManager.cleanupAfterCommand(),
    refusals: () =>
      SandboxManager.getSandboxViolationStore()
        .getViolationsForCommand(last)
        .map((v) => v.line),
    close: async () => {
      await SandboxManager.reset();
      removeFolders();
    },
    warnings: deps.warnings,
    reach: {
      root,
      tempDir,
      writable,
      guarded,
      allowedDomains: [...policy.allowedDomains],
      refusesWritesWith: process.platform === "darwin" ? "EPERM" : "EROFS",
    },
  };
}

/**
 * How validations may use unix sockets. On macOS the sandbox lets them bind and connect under their temp folder only.
 * On Linux it can only allow all of them or none (seccomp cannot read a socket's path), so it allows all and hides
 * the folders where other programs keep theirs: the host's temp folders, /run (docker, dbus, systemd, the user's
 * session), and the home folder's ssh, gpg and docker folders. What a validation may write stays visible, and
 * `readable` (srt's own folder, with its network bridge's sockets) is seen read-only.
 */
export function unixSocketPolicy(
  home: string,
  tempDir: string,
  writable: readonly string[],
  readable: string | null,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): {
  network: { allowAllUnixSockets?: true; allowUnixSockets?: string[] };
  denyRead: string[];
  allowRead: string[];
} {
  if (platform !== "linux")
    return {
      network: { allowUnixSockets: [tempDir] },
      denyRead: [],
      allowRead: [],
    };
  const agentSocket = env["SSH_AUTH_SOCK"];
  const hidden = [
    "/tmp",
    "/var/tmp",
    realOrSelf(tmpdir()),
    "/run",
    "/var/run",
    env["XDG_RUNTIME_DIR"],
    env["CLAUDE_CODE_TMPDIR"] === tempDir
      ? undefined
      : env["CLAUDE_CODE_TMPDIR"],
    env["CLAUDE_TMPDIR"],
    join(home, ".ssh"),
    join(home, ".gnupg"),
    join(home, ".docker"),
    agentSocket ? dirname(agentSocket) : undefined,
  ].filter(
    (p): p is string =>
      typeof p === "string" &&
      isAbsolute(p) &&
      p !== "/" &&
      p !== home &&
      existsSync(p) &&
      !writable.some((w) => w === p || isInside(p, w)),
  );
  return {
    network: { allowAllUnixSockets: true },
    denyRead: [...new Set(hidden)],
    allowRead: [...writable, ...(readable === null ? [] : [readable])],
  };
}

type SignalListeners = Record<"SIGINT" | "SIGTERM", readonly unknown[]>;

function signalListeners(): SignalListeners {
  return {
    SIGINT: process.listeners("SIGINT"),
    SIGTERM: process.listeners("SIGTERM"),
  };
}

/** Removes the SIGINT and SIGTERM listeners added since `before` was taken (srt adds them once, in `initialize`). */
function removeListenersSince(before: SignalListeners): void {
  for (const name of ["SIGINT", "SIGTERM"] as const)
    for (const listener of process.listeners(name))
      if (!before[name].includes(listener)) process.off(name, listener);
}

/** Whether `folder` is `/` or holds (or is) one of `paths`: reading it would show what the sandbox hides. */
function holdsAny(folder: string, paths: readonly string[]): boolean {
  return paths.some((p) => p === folder || isInside(p, folder));
}

function isInside(path: string, folder: string): boolean {
  return folder === "/" || path.startsWith(`${folder}/`);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
