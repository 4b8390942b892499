import type { WriteOp } from "./types.ts";
import { baseName } from "./command-name.ts";
import { hasOption, optionValues, splitOptions } from "./split-options.ts";

export interface Target {
  path: string;
  op: WriteOp;
}

/** What one command does to the files its arguments name (argv without the command name). */
export type TargetRule = (args: readonly string[]) => Target[];

const each = (paths: readonly string[], op: WriteOp): Target[] =>
  paths.map((path) => ({ path, op }));

function copyLike(args: readonly string[], sourceOp: WriteOp | null): Target[] {
  const split = splitOptions(args, {
    short: "tS",
    long: ["target-directory", "suffix"],
  });
  const directory = optionValues(split, "t", "--target-directory");
  const sources =
    directory.length > 0 ? split.operands : split.operands.slice(0, -1);
  const destination =
    directory.length > 0 ? directory : split.operands.slice(-1);
  if (directory.length === 0 && split.operands.length < 2) return [];
  return [
    ...(sourceOp ? each(sources, sourceOp) : []),
    ...each(destination, "write"),
  ];
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
  const directory = optionValues(split, "t", "--target-directory");
  if (directory.length > 0) return each(directory, "write");
  return split.operands.length >= 2
    ? each(split.operands.slice(-1), "write")
    : [];
}

function link(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "tS",
    long: ["target-directory", "suffix"],
  });
  const [directory] = optionValues(split, "t", "--target-directory");
  if (directory !== undefined)
    return each(
      split.operands.map((p) => `${directory}/${baseName(p)}`),
      "write",
    );
  if (split.operands.length === 1)
    return each([baseName(split.operands[0]!)], "write");
  return each(split.operands.slice(-1), "write");
}

/** `chmod -w file` is a mode, not an option, so only the real options are skipped. */
function chmod(args: readonly string[]): Target[] {
  const operands: string[] = [];
  let reference = false;
  let ended = false;
  for (const arg of args) {
    if (!ended && arg === "--") ended = true;
    else if (!ended && /^-[Rcfv]+$/.test(arg)) continue;
    else if (!ended && arg.startsWith("--"))
      reference ||= arg.startsWith("--reference=");
    else operands.push(arg);
  }
  return each(reference ? operands : operands.slice(1), "write");
}

function chown(args: readonly string[]): Target[] {
  const split = splitOptions(args);
  const reference = split.options.some((o) => o.name === "--reference");
  return each(reference ? split.operands : split.operands.slice(1), "write");
}

function tee(args: readonly string[]): Target[] {
  const split = splitOptions(args);
  const op = hasOption(split, "a", "--append") ? "append" : "write";
  return each(
    split.operands.filter((p) => p !== "-"),
    op,
  );
}

function deleteAll(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "ns",
    long: ["iterations", "size", "random-source"],
  });
  return each(split.operands, "delete");
}

function touch(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "rdt",
    long: ["reference", "date"],
  });
  return each(split.operands, "write");
}

function truncate(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "sr",
    long: ["size", "reference"],
  });
  return each(split.operands, "write");
}

function dd(args: readonly string[]): Target[] {
  return each(
    args.filter((a) => a.startsWith("of=")).map((a) => a.slice(3)),
    "write",
  );
}

/** Coreutils-style commands that name the files they change as arguments. */
export const FILE_COMMANDS: Readonly<Record<string, TargetRule>> = {
  cp: (args) => copyLike(args, null),
  mv: (args) => copyLike(args, "move"),
  install,
  ln: link,
  rm: deleteAll,
  unlink: deleteAll,
  rmdir: deleteAll,
  shred: deleteAll,
  tee,
  touch,
  truncate,
  dd,
  chmod,
  chown,
  chgrp: chown,
};
