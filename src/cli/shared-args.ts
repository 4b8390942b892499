import { resolve } from "node:path";

export const sharedArgs = {
  json: {
    type: "boolean",
    description: "Print machine-readable JSON",
    default: false,
  },
  cwd: {
    type: "string",
    description: "Project directory (default: the current directory)",
  },
} as const;

export function projectRoot(args: { cwd?: string | undefined }): string {
  return resolve(args.cwd ?? process.cwd());
}
