import { findPackageRoot } from "../../adapters/package-root.ts";
import { startSandbox } from "../../adapters/sandbox.ts";
import { readConfig } from "../workspace/read-config.ts";
import type { IsolateOptions, Isolation } from "./verify.ts";

/** The sandbox for the validations of `root`, with the hosts and folders `verify` in `.claude/playbook.json` allows. */
export async function startIsolation(
  root: string,
  options: IsolateOptions = {},
): Promise<Isolation> {
  const { verify } = readConfig(options.configRoot ?? root).config;
  let packageRoot: string | null;
  try {
    packageRoot = findPackageRoot().root;
  } catch {
    packageRoot = null;
  }
  const sandbox = await startSandbox({
    root,
    allowedDomains: verify.allowedDomains,
    allowWrite: verify.allowWrite,
    allowRead: options.allowRead ?? [],
    hide: options.hide ?? [],
    packageRoot,
    interruptible: options.interruptible === true,
    keepCaches: options.freshCaches !== true,
  });
  return sandbox.ok
    ? { sandboxed: true, ...sandbox }
    : { sandboxed: false, why: sandbox.why, next: sandbox.next };
}
