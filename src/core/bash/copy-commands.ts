import { baseName, inFolder } from "./command-name.ts";
import type { Target, TargetRule } from "./file-commands.ts";
import type { WriteOp } from "./types.ts";
import {
  hasOption,
  optionValues,
  splitOptions,
  type SplitArgs,
} from "./split-options.ts";

const each = (paths: readonly string[], op: WriteOp): Target[] =>
  paths.map((path) => ({ path, op }));

/**
 * Whether a destination may be a folder the sources land in: spelled with a trailing `/`, `.`, `..` or `~`, given
 * to several sources, copied recursively, or named without an extension (`cp a.md plan` fills `plan/a.md` when
 * `plan` is a folder). Guessing a folder too often only names paths that do not exist.
 */
export function mayBeFolder(
  destination: string,
  sources: number,
  recursive: boolean,
): boolean {
  return (
    sources > 1 ||
    recursive ||
    destination.endsWith("/") ||
    /^(?:\.\.?|~)$/.test(destination) ||
    !baseName(destination).includes(".")
  );
}

/** The paths sources get inside a destination folder: `dest/<basename>`, or `dest/*` for a nameless source. */
export function intoFolder(
  folder: string,
  sources: readonly string[],
  op: WriteOp = "write",
): Target[] {
  return sources.map((source) => {
    const name = baseName(source);
    const unnamed = source.endsWith("/.") || /^(?:\.\.?|\/*)$/.test(name);
    return { path: inFolder(folder, unnamed ? "*" : name), op };
  });
}

const TARGET_SPEC = { short: "tS", long: ["target-directory", "suffix"] };

function recursive(split: SplitArgs): boolean {
  return hasOption(split, "r", "R", "a", "--recursive", "--archive");
}

/** `cp`/`mv`/`ln`: `-t DIR SRC...` or `SRC... DEST`, with each source's name inside DEST when it is a folder. */
function placed(
  split: SplitArgs,
  sourceOp: WriteOp | null,
  recursiveCopy: boolean,
): Target[] {
  const [directory] = optionValues(split, "t", "--target-directory");
  const sources =
    directory !== undefined ? split.operands : split.operands.slice(0, -1);
  const destination = directory ?? split.operands.at(-1);
  if (
    destination === undefined ||
    (directory === undefined && sources.length === 0)
  )
    return [];
  const folder =
    directory !== undefined ||
    mayBeFolder(destination, sources.length, recursiveCopy);
  return [
    ...(sourceOp ? each(sources, sourceOp) : []),
    { path: destination, op: "write" },
    ...(folder ? intoFolder(destination, sources) : []),
  ];
}

function copy(args: readonly string[]): Target[] {
  const split = splitOptions(args, TARGET_SPEC);
  return placed(split, null, recursive(split));
}

function move(args: readonly string[]): Target[] {
  return placed(splitOptions(args, TARGET_SPEC), "move", false);
}

function install(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "mogSt",
    long: [
      "mode",
      "owner",
      "group",
      "suffix",
      "target-directory",
      "strip-program",
    ],
  });
  if (hasOption(split, "d", "--directory"))
    return each(split.operands, "write");
  return placed(split, null, false);
}

function link(args: readonly string[]): Target[] {
  const split = splitOptions(args, TARGET_SPEC);
  const [directory] = optionValues(split, "t", "--target-directory");
  if (directory !== undefined) return intoFolder(directory, split.operands);
  if (split.operands.length === 1)
    return each([baseName(split.operands[0]!)], "write");
  return placed(split, null, false);
}

function isRemote(path: string): boolean {
  return /^[^/]+:/.test(path);
}

const RSYNC_VALUES = [
  "exclude",
  "include",
  "filter",
  "rsh",
  "exclude-from",
  "include-from",
  "files-from",
  "temp-dir",
  "compare-dest",
  "copy-dest",
  "link-dest",
  "backup-dir",
  "suffix",
  "chmod",
  "rsync-path",
  "log-file",
  "partial-dir",
  "password-file",
  "out-format",
  "timeout",
  "bwlimit",
  "max-size",
  "min-size",
  "port",
  "chown",
  "usermap",
  "groupmap",
  "block-size",
  "modify-window",
  "max-delete",
  "remote-option",
  "info",
  "debug",
];

/** `rsync SRC... DEST`: `src/` copies the folder's contents (`DEST/*`), `src` the folder itself (`DEST/src`). */
function rsync(args: readonly string[]): Target[] {
  const split = splitOptions(args, { short: "efTBM", long: RSYNC_VALUES });
  const copiesFolders = recursive(split);
  const destination = split.operands.at(-1);
  const sources = split.operands.slice(0, -1);
  if (
    sources.length === 0 ||
    destination === undefined ||
    isRemote(destination)
  )
    return [];
  const inside = sources.flatMap((source) =>
    source.endsWith("/")
      ? [{ path: inFolder(destination, "*"), op: "write" as const }]
      : mayBeFolder(destination, sources.length, copiesFolders)
        ? intoFolder(destination, [source])
        : [],
  );
  const deletes = split.options.some((o) => o.name.startsWith("--delete"))
    ? [{ path: inFolder(destination, "*"), op: "delete" as const }]
    : [];
  return [{ path: destination, op: "write" }, ...inside, ...deletes];
}

/** Commands that copy, move or link files into a destination file or folder. */
export const COPY_COMMANDS: Readonly<Record<string, TargetRule>> = {
  cp: copy,
  mv: move,
  install,
  ln: link,
  rsync,
};
