import type { WriteOp } from "./types.ts";
import { hasOption, splitOptions } from "./split-options.ts";

export interface Target {
  path: string;
  op: WriteOp;
}

/** What one command does to the files its arguments name (argv without the command name). */
export type TargetRule = (args: readonly string[]) => Target[];

const each = (paths: readonly string[], op: WriteOp): Target[] =>
  paths.map((path) => ({ path, op }));

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
