import { spawnSync } from "node:child_process";

/** What installs the Linux sandbox's tools, as `playbook verify` names it when they are missing. */
export const INSTALL_SANDBOX_TOOLS =
  "sudo apt-get install bubblewrap socat ripgrep";

/**
 * Fails (never skips) when a program a test needs does not run here, with the command that installs it: a machine
 * without it must not pass by testing less.
 */
export function requireTool(
  command: string,
  args: string[],
  install: string,
): void {
  const found = spawnSync(command, args, { stdio: "ignore" });
  if (found.error || found.status !== 0)
    throw new Error(
      `\`${[command, ...args].join(" ")}\` does not run here: ${install} (.ci/run installs it on Linux).`,
    );
}

/**
 * Fails when a program playbook's sandbox needs is missing: bubblewrap, socat and ripgrep on Linux; on macOS, whose
 * sandbox-exec is part of the system, ripgrep.
 */
export function requireSandboxTools(): void {
  if (process.platform === "darwin")
    return requireTool("which", ["rg"], "brew install ripgrep");
  for (const tool of ["bwrap", "socat", "rg"])
    requireTool("which", [tool], INSTALL_SANDBOX_TOOLS);
}
