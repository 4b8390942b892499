import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * What this machine lacks for Claude Code's Bash sandbox, read from PATH without starting a process (SessionStart
 * runs on every session): native Windows has none; Linux needs bubblewrap, socat and ripgrep. Empty when nothing
 * is missing that this check can see.
 */
export function missingSandboxTools(
  platform: NodeJS.Platform,
  path: string | undefined,
): string[] {
  if (platform === "win32")
    return ["a sandbox (native Windows has none; use WSL 2)"];
  if (platform !== "linux") return [];
  const folders = (path ?? "").split(delimiter).filter(Boolean);
  return ["bwrap", "socat", "rg"].filter(
    (tool) =>
      !folders.some((folder) => {
        try {
          accessSync(join(folder, tool), constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }),
  );
}
