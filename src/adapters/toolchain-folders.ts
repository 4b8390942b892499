import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GO_BUILD_CACHES } from "../core/scaffold/toolchain-writes.ts";

/**
 * Creates the toolchain folders settings.json opens to the agent's shell (`toolchainAllowWrite`) that are this
 * platform's and missing: Claude Code's sandbox opens only a folder that exists, so without it a first `go test` in
 * the agent's shell fails on a read-only home. The SessionStart hook runs it with Claude Code's own home, init and
 * install with the terminal's. Returns the folders it created.
 */
export function createToolchainFolders(projectDir: string): string[] {
  let entries: unknown;
  try {
    const settings = JSON.parse(
      readFileSync(join(projectDir, ".claude", "settings.json"), "utf8"),
    ) as { sandbox?: { filesystem?: { allowWrite?: unknown } } };
    entries = settings.sandbox?.filesystem?.allowWrite;
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  const mine =
    process.platform === "darwin"
      ? "~/Library/Caches/go-build"
      : "~/.cache/go-build";
  if (!entries.includes(mine) || !GO_BUILD_CACHES.includes(mine)) return [];
  // HOME, as the shell's `~` reads it (and without node:os, which the session hook does not load).
  const home = process.env["HOME"];
  if (home === undefined || home === "") return [];
  const folder = join(home, mine.slice(2));
  try {
    return mkdirSync(folder, { recursive: true }) === undefined ? [] : [folder];
  } catch {
    return [];
  }
}
