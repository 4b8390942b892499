/**
 * What the agent's shell must write for the project's toolchain to run there as in a terminal, as
 * `sandbox.filesystem.allowWrite` entries of settings.json (`~` is the home of whoever runs Claude Code, so the
 * committed file names no machine): Go's build cache (Linux's and macOS's default place). The proof never reads it:
 * `verify` builds into playbook's own cache, and a re-proof into an empty one (docs/configuration.md).
 */
export function toolchainAllowWrite(...commands: readonly string[]): string[] {
  const go = commands.some((c) => /^\s*go\s/.test(c));
  return go ? [...GO_BUILD_CACHES] : [];
}

/** Go's default build cache (`os.UserCacheDir()/go-build`) on Linux and on macOS. */
export const GO_BUILD_CACHES = [
  "~/.cache/go-build",
  "~/Library/Caches/go-build",
] as const;
