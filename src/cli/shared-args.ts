import { statSync } from "node:fs";
import { resolve } from "node:path";
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

/** The project directory: `--cwd` resolved against the current directory, which must name an existing directory. */
export function projectRoot(args: { cwd?: string | undefined }): string {
  if (args.cwd === undefined) return process.cwd();
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
