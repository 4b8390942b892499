import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { WRITE_GUARDED_PATHS } from "../core/paths/trust-paths.ts";
import { withAgentPath } from "./trusted-path-env.ts";

/** What a validation command may touch besides the project (`verify` in `.claude/playbook.json`). */
export interface SandboxPolicy {
  root: string;
  /** Hosts the command may reach (srt's `network.allowedDomains`); empty: none, only the sandbox's own loopback. */
  allowedDomains: readonly string[];
  /** Extra folders it may write (absolute, or `~/...`). */
  allowWrite: readonly string[];
  /** The installed playbook-kit, write-protected when it sits inside the project (node_modules, a link). */
  packageRoot: string | null;
}

export type Sandbox =
  | {
      ok: true;
      /** The shell command that runs `command` inside the sandbox. */
      wrap: (command: string) => Promise<string>;
      /** After each wrapped command: removes the mount points srt made for paths that did not exist. */
      cleanup: () => void;
      close: () => Promise<void>;
      warnings: string[];
    }
  | { ok: false; why: string; next: string };

/**
 * The paths a validation must not write, whatever it is (docs/guards.md): the trust paths (records, grants, locks,
 * the configuration with the security mode, the agents, the hook loader, playbook itself), Claude Code's settings,
 * which wire the hooks, and git's own folder (hooks, config, refs, what `.git/info/exclude` hides from the
 * fingerprint). Folders cover everything inside them.
 */
export function protectedPaths(
  root: string,
  packageRoot: string | null,
): string[] {
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

/** Where package managers keep downloads: content-checked caches only, never folders whose files are run later. */
function cacheFolders(home: string): string[] {
  return [join(home, ".npm", "_cacache"), join(home, ".npm", "_logs")];
}

function expandHome(path: string, home: string): string {
  return path === "~" || path.startsWith("~/")
    ? join(home, path.slice(2))
    : path;
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
  // srt points TMPDIR inside the sandbox at CLAUDE_CODE_TMPDIR, else at /tmp/claude, which may not exist: make it
  // the OS temp folder, so tools that write temporary files (test runners, compilers) work as they do outside.
  const sandboxTemp =
    process.env["CLAUDE_CODE_TMPDIR"] ||
    process.env["CLAUDE_TMPDIR"] ||
    tmpdir();
  process.env["CLAUDE_CODE_TMPDIR"] = sandboxTemp;
  mkdirSync(sandboxTemp, { recursive: true });
  const temp = [
    ...new Set([tmpdir(), realOrSelf(tmpdir()), realOrSelf(sandboxTemp)]),
  ];
  const extra = policy.allowWrite.map((p) =>
    resolve(root, expandHome(p, home)),
  );
  try {
    await SandboxManager.initialize({
      network: {
        allowedDomains: [...policy.allowedDomains],
        deniedDomains: [],
      },
      filesystem: {
        denyRead: [],
        allowWrite: [root, ...temp, ...cacheFolders(home), ...extra].filter(
          (p) => p === root || existsSync(p) || extra.includes(p),
        ),
        denyWrite: protectedPaths(root, policy.packageRoot),
      },
    });
  } catch (error) {
    await SandboxManager.reset().catch(() => undefined);
    return { ok: false, why: errorText(error), next: install };
  }
  return {
    ok: true,
    wrap: (command) => SandboxManager.wrapWithSandbox(withAgentPath(command)),
    cleanup: () => SandboxManager.cleanupAfterCommand(),
    close: () => SandboxManager.reset(),
    warnings: deps.warnings,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
