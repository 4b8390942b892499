import { lstatSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { SANDBOX_MOUNT_POINTS } from "../core/paths/sandbox-placeholders.ts";
import { runGitSync } from "./git-runner.ts";
import { isPlaceholderOnDisk } from "./placeholder-check.ts";

export interface GitExcludeFile {
  /** Where git reads the repository's exclude file, relative to the project (`.git/info/exclude`). */
  path: string;
  /** Its text, or null when it does not exist. */
  text: string | null;
  /** The project's folder inside the repository (`git rev-parse --show-prefix`), "" at its top. */
  prefix: string;
}

/** The repository's `info/exclude` as git locates it from `dir` (a linked worktree's is the shared one), or null. */
export function readGitExcludeFile(dir: string): GitExcludeFile | null {
  const result = runGitSync({
    cwd: dir,
    args: ["rev-parse", "--git-path", "info/exclude", "--show-prefix"],
    purpose: "read",
    timeoutMs: 10_000,
  });
  const [where, prefix = ""] = result.stdout.split("\n");
  if (result.status !== 0 || !where) return null;
  const absolute = resolve(dir, where);
  let text: string | null;
  try {
    text = readFileSync(absolute, "utf8");
  } catch {
    text = null;
  }
  return { path: relative(dir, absolute), text, prefix };
}

/**
 * The sandbox's mount-point names that are not real files in `dir`: absent, or a mount point left there (a device, or
 * an empty file under the name while a sandboxed command runs).
 */
export function readMissingMountPoints(dir: string): Set<string> {
  const missing = new Set<string>();
  for (const { path } of SANDBOX_MOUNT_POINTS) {
    try {
      lstatSync(resolve(dir, path));
    } catch {
      missing.add(path);
      continue;
    }
    if (isPlaceholderOnDisk(dir, path)) missing.add(path);
  }
  return missing;
}
