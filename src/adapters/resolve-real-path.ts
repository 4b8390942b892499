import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { toAbsolute, toForwardSlashes } from "../core/paths/repo-path.ts";

/**
 * `path` (relative to `cwd`) with every symlink resolved, as an absolute POSIX path. A path that does not exist yet
 * resolves through its deepest existing folder, so a new file behind a symlinked folder is still seen where it lands.
 */
export function resolveRealPath(cwd: string, path: string): string {
  const absolute = toAbsolute(cwd, path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = toForwardSlashes(realpathSync(current));
      return missing.length > 0
        ? join(real, ...missing.reverse()).replace(/\\/g, "/")
        : real;
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      missing.push(basename(current));
      current = parent;
    }
  }
}
