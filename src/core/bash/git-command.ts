import { inFolder } from "./command-name.ts";
import { intoFolder, mayBeFolder } from "./copy-commands.ts";
import type { Target } from "./file-commands.ts";
import { hasOption, splitOptions } from "./split-options.ts";

/** git's own options before the subcommand whose value is the next word. */
const GLOBAL_VALUES = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
]);

/**
 * `git rm PATHS` deletes each path (not with `--cached` or `-n`); `git mv SRC... DST` moves the sources to DST or
 * into it. Paths are relative to `-C DIR` when given. Other subcommands change no file the line names.
 */
export function gitTargets(args: readonly string[]): Target[] {
  let i = 0;
  let directory: string | null = null;
  for (; i < args.length && args[i]!.startsWith("-"); i++) {
    const arg = args[i]!;
    if (arg === "-C")
      directory =
        directory === null ? args[i + 1]! : inFolder(directory, args[i + 1]!);
    if (GLOBAL_VALUES.has(arg)) i++;
  }
  const subcommand = args[i];
  const rest = args.slice(i + 1);
  const at = (path: string) =>
    directory === null || path.startsWith("/")
      ? path
      : inFolder(directory, path);
  const targets =
    subcommand === "rm" ? gitRm(rest) : subcommand === "mv" ? gitMv(rest) : [];
  return targets.map((t) => ({ ...t, path: at(t.path) }));
}

function gitRm(args: readonly string[]): Target[] {
  const split = splitOptions(args, { long: ["pathspec-from-file"] });
  if (hasOption(split, "n", "--dry-run", "--cached")) return [];
  return split.operands.map((path) => ({ path, op: "delete" }));
}

function gitMv(args: readonly string[]): Target[] {
  const split = splitOptions(args);
  if (hasOption(split, "n", "--dry-run")) return [];
  const sources = split.operands.slice(0, -1);
  const destination = split.operands.at(-1);
  if (destination === undefined || sources.length === 0) return [];
  return [
    ...sources.map((path) => ({ path, op: "move" as const })),
    { path: destination, op: "write" },
    ...(mayBeFolder(destination, sources.length, false)
      ? intoFolder(destination, sources)
      : []),
  ];
}
