import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PlaybookError } from "../core/errors.ts";

export const sharedArgs = {
  json: {
    type: "boolean",
    description: "Print machine-readable JSON",
    default: false,
  },
  cwd: {
    type: "string",
    description: "Project directory (default: the current directory)",
    valueHint: "directory",
  },
} as const;

/**
 * The project directory: `--cwd` resolved against the current directory, which must name an existing directory; else
 * the nearest folder up from the current one that holds `.claude/playbook.json` (then `state.md`), so a command
 * works from any subfolder; else the current directory. `here` keeps the current directory (init, uninstall).
 */
export function projectRoot(
  args: { cwd?: string | undefined },
  options: { here?: boolean } = {},
): string {
  if (args.cwd === undefined)
    return options.here ? process.cwd() : findProjectRoot(process.cwd());
  const root = resolve(args.cwd);
  const hint =
    "Pass the project's directory to --cwd, or leave --cwd out to use the current directory.";
  let isDirectory: boolean;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PlaybookError(
      "E_USAGE",
      code === "ENOENT" || code === "ENOTDIR"
        ? `No such directory: ${root}`
        : `Cannot open the directory ${root} (${code ?? String(error)})`,
      { hint, cause: error },
    );
  }
  if (!isDirectory)
    throw new PlaybookError("E_USAGE", `Not a directory: ${root}`, { hint });
  return root;
}

/** The nearest folder from `start` up that holds `.claude/playbook.json`, else `state.md`, else `start`. */
function findProjectRoot(start: string): string {
  for (const marker of [join(".claude", "playbook.json"), "state.md"]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      if (existsSync(join(dir, marker))) return dir;
      if (dirname(dir) === dir) break;
    }
  }
  return start;
}
