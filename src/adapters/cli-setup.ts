import { readFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { setupOfDist, type CliSetup } from "../core/scaffold/cli-spelling.ts";
import { readLoaderChecks } from "../core/scaffold/hook-loader.ts";
import { cliSpelling } from "../core/scaffold/setup-kind.ts";
import { HOOK_LOADER } from "../core/paths/trust-paths.ts";

/**
 * How the project at `start` (or the nearest folder above it with playbook's hook loader) runs playbook, so that the
 * CLI names its commands the way that works there: from where this CLI runs when that is the project's own copy,
 * else from the committed loader (a CLI run through npx or a global install in a set-up project); else as this CLI is
 * spelled (`setupOfDist`).
 */
export function readCliSetup(start: string, packageRoot: string): CliSetup {
  const own =
    /[\\/](?:node_modules[\\/]playbook-kit|\.claude[\\/]playbook[\\/]runtime)$/.exec(
      packageRoot,
    );
  if (own !== null) {
    const up = packageRoot.endsWith(`playbook-kit`) ? 2 : 3;
    const project = resolve(packageRoot, ...Array<string>(up).fill(".."));
    return setupOfDist(project, join(packageRoot, "dist"));
  }
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    let text: string | null;
    try {
      text = readFileSync(join(dir, HOOK_LOADER), "utf8");
    } catch {
      text = null;
    }
    const kind = text === null ? null : readLoaderChecks(text)?.setup;
    if (kind === "npm" || kind === "runtime")
      return { kind, cli: cliSpelling(kind) };
    if (text !== null || dirname(dir) === dir) break;
  }
  return setupOfDist(sep, join(packageRoot, "dist"));
}
