import { accessSync, constants, lstatSync } from "node:fs";
import { dirname, join } from "node:path";
import { RUNTIME_DIR } from "./runtime-files.ts";

/**
 * Whether this process can write playbook's runtime folder: not inside Claude Code's sandbox, which mounts it
 * read-only (or, while it does not exist, a device over its name), nor on a read-only disk.
 */
export function isRuntimeWritable(projectDir: string): boolean {
  const runtime = join(projectDir, RUNTIME_DIR);
  let target = runtime;
  try {
    if (!lstatSync(runtime).isDirectory()) return false;
  } catch {
    // Not made yet: whoever may write it can make it in `.claude`, or in the project when that is missing too.
    target = dirname(runtime);
    try {
      lstatSync(target);
    } catch {
      target = projectDir;
    }
  }
  try {
    accessSync(target, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
