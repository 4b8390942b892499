import { existsSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import {
  NPM_PACKAGE,
  RUNTIME_COPY,
  cliSpelling,
  projectHookPath,
  type SetupKind,
} from "../../core/scaffold/setup-kind.ts";

export interface LocatedHook {
  setup: SetupKind;
  /** The hook bundle as settings.json names it. */
  hookPath: string;
  /** How prompts and messages tell the agent and the user to run the CLI. */
  cli: string;
}

/**
 * Which setup `init` makes in `dir` (core/scaffold/setup-kind.ts): a project install when the project has one; else
 * the runtime copy when this CLI runs from an installed package (npx's cache, a global install) or from that copy;
 * else this is a source checkout, named by its absolute path.
 */
export function locateHook(dir: string, packageRoot: string): LocatedHook {
  if (existsSync(join(dir, NPM_PACKAGE, "dist", "hook.cjs")))
    return {
      setup: "npm",
      hookPath: projectHookPath("npm"),
      cli: cliSpelling("npm"),
    };
  if (
    isInstalledPackage(packageRoot) ||
    resolve(packageRoot) === resolve(dir, RUNTIME_COPY)
  )
    return {
      setup: "runtime",
      hookPath: projectHookPath("runtime"),
      cli: cliSpelling("runtime"),
    };
  const slashed = (path: string) => path.split(sep).join("/");
  return {
    setup: "checkout",
    hookPath: slashed(join(packageRoot, "dist", "hook.cjs")),
    cli: cliSpelling(
      "checkout",
      `node "${slashed(join(packageRoot, "dist", "cli.mjs"))}"`,
    ),
  };
}

/** npm puts every package it installs (project, global, npx's cache) in a `node_modules` folder. */
function isInstalledPackage(packageRoot: string): boolean {
  return packageRoot.split(sep).includes("node_modules");
}
