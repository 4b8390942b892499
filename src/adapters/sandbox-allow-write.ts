import { readFileSync, realpathSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { toForwardSlashes } from "../core/paths/repo-path.ts";

/**
 * The folders outside the project that Claude Code's Bash sandbox lets the agent's shell write besides the temporary
 * ones: `sandbox.filesystem.allowWrite` of the project's settings, its local settings and the user's settings,
 * resolved (`~/` from the user's folder, relative entries from the project). The file tools may write there too.
 * A settings file that cannot be read or parsed adds nothing.
 */
export function readSandboxAllowWrite(
  projectDir: string,
  homeDir: string | null,
): string[] {
  const files = [
    join(projectDir, ".claude", "settings.json"),
    join(projectDir, ".claude", "settings.local.json"),
    ...(homeDir === null ? [] : [join(homeDir, ".claude", "settings.json")]),
  ];
  const folders = new Set<string>();
  for (const file of files) {
    let entries: unknown;
    try {
      const settings = JSON.parse(readFileSync(file, "utf8")) as {
        sandbox?: { filesystem?: { allowWrite?: unknown } };
      };
      entries = settings.sandbox?.filesystem?.allowWrite;
    } catch {
      continue;
    }
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (typeof entry !== "string" || entry === "") continue;
      const path =
        entry === "~" || entry.startsWith("~/")
          ? homeDir === null
            ? null
            : join(homeDir, entry.slice(1))
          : entry.startsWith("//")
            ? entry.slice(1)
            : isAbsolute(entry)
              ? entry
              : join(projectDir, entry);
      if (path === null) continue;
      folders.add(toForwardSlashes(path).replace(/\/$/, ""));
      try {
        folders.add(toForwardSlashes(realpathSync(path)).replace(/\/$/, ""));
      } catch {
        // Not there yet: the named path is all there is.
      }
    }
  }
  return [...folders];
}
