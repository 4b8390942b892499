import { realpathSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { realRoot } from "./opened-file.ts";

/**
 * Why `state.md` or a playbook cannot be judged under its own name (docs/trust-boundary.md, "Every name a write
 * reaches"), or null: it is a symbolic link (the agent would edit the target, a file the hook judges as something
 * else), it has other names (a hard link), or a folder on its way is a link. `stats` is the file's `lstat`.
 */
export function documentNameProblem(
  projectDir: string,
  relPath: string,
  stats: Stats,
): string | null {
  if (stats.isSymbolicLink())
    return `\`${relPath}\` is a symbolic link, so its content lives under another name that playbook would not judge as the plan.`;
  if (stats.isFile() && stats.nlink > 1)
    return `\`${relPath}\` has ${stats.nlink - 1} other name${stats.nlink === 2 ? "" : "s"} (a hard link), under which it could be changed unjudged.`;
  const folder = dirname(relPath);
  if (folder === ".") return null;
  try {
    if (
      realpathSync(join(projectDir, folder)) !==
      join(realRoot(projectDir), folder)
    )
      return `the folder of \`${relPath}\` is a symbolic link, so the file lives under another name that playbook would not judge as the plan.`;
  } catch {
    return null;
  }
  return null;
}

/** The step that lifts {@link documentNameProblem}, without "Next:". */
export function documentNameRepair(relPath: string): string {
  return `ask the user to put the file itself at \`${relPath}\`, in their terminal (plan/ and state.md are read-only to your shell): \`cp "$(realpath ${relPath})" ${relPath}.new && mv ${relPath}.new ${relPath}\``;
}
