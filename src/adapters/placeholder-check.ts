import { isSandboxPlaceholder } from "../core/paths/sandbox-placeholders.ts";

/** Whether the untracked `repoPath` under `root` is a sandbox's mount point (see `isSandboxPlaceholder`). */
export function isPlaceholderOnDisk(root: string, repoPath: string): boolean {
  const { lstatSync } = process.getBuiltinModule("node:fs");
  try {
    const stat = lstatSync(`${root}/${repoPath.replace(/\/$/, "")}`);
    return isSandboxPlaceholder(
      repoPath.replace(/\/$/, ""),
      stat.isCharacterDevice()
        ? "character-device"
        : stat.isFile() && stat.size === 0
          ? "empty-file"
          : "other",
    );
  } catch {
    return false;
  }
}
