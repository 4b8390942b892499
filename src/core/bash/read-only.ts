import { baseName, gitArgs } from "../guards/command-words.ts";
import type { BashAnalysis, Redirect, SimpleCommand } from "./types.ts";

/** Whether a program's arguments keep it from writing a file or starting another program. */
type ArgumentCheck = (args: readonly string[]) => boolean;

const ANY: ArgumentCheck = () => true;

/**
 * Arguments without any of `options`: a long one alone or as `--name=value`, a one-letter one anywhere in a cluster
 * (`-no file`, `-ofile`; a letter that is really part of a value only makes the check stricter), and a single-dash
 * word (`find -delete`) as itself.
 */
const without =
  (...options: string[]): ArgumentCheck =>
  (args) =>
    !args.some((arg) =>
      options.some((option) =>
        option.startsWith("--")
          ? arg === option || arg.startsWith(`${option}=`)
          : option.length === 2
            ? /^-[^-]/.test(arg) && arg.includes(option[1] ?? "")
            : arg === option,
      ),
    );

/**
 * Programs that write no file and start no other program, with the options that would make them (`sort -o`,
 * `find -delete`, `rg --pre`). Only bare names count: `./ls` or `bin/cat` may be anything.
 */
const READ_ONLY: ReadonlyMap<string, ArgumentCheck> = new Map([
  ...[
    "ls",
    "cat",
    "head",
    "tail",
    "wc",
    "grep",
    "egrep",
    "fgrep",
    "echo",
    "printf",
    "pwd",
    "true",
    "false",
    ":",
    "test",
    "[",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "stat",
    "du",
    "df",
    "which",
    "type",
    "cut",
    "tr",
    "nl",
    "column",
    "comm",
    "diff",
    "cmp",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "md5sum",
    "cksum",
    "jq",
    "whoami",
    "id",
    "uname",
    "cd",
    "pushd",
    "popd",
  ].map((name) => [name, ANY] as const),
  ["rg", without("--pre", "--pre-glob", "-z", "--search-zip")],
  [
    "find",
    without(
      "-delete",
      "-exec",
      "-execdir",
      "-ok",
      "-okdir",
      "-fprint",
      "-fprint0",
      "-fprintf",
      "-fls",
    ),
  ],
  ["sort", without("-o", "--output", "--compress-program")],
  ["tree", without("-o")],
  ["date", without("-s", "--set")],
  ["file", without("-C", "--compile")],
  // `uniq IN OUT` writes OUT.
  ["uniq", (args) => args.filter((a) => !a.startsWith("-")).length <= 1],
]);

/** Folder changes: harmless themselves, but git run after one may read a repository the agent configured. */
const MOVES_FOLDER = new Set(["cd", "pushd", "popd"]);

/** Options of git's read commands that write a file or start a program. */
const GIT_WRITES = without(
  "--output",
  "--ext-diff",
  "-O",
  "--open-files-in-pager",
);

/** Read-only git subcommands, each with the arguments that keep it so. */
const GIT_READ_ONLY: ReadonlyMap<string, ArgumentCheck> = new Map([
  ...[
    "status",
    "log",
    "show",
    "diff",
    "shortlog",
    "blame",
    "grep",
    "ls-files",
    "ls-tree",
    "cat-file",
    "rev-parse",
    "rev-list",
    "describe",
    "merge-base",
    "name-rev",
    "show-ref",
    "for-each-ref",
  ].map(
    (sub) =>
      [
        sub,
        // There `-O` names a file to read the order of paths from.
        sub === "log" || sub === "show" || sub === "diff"
          ? without("--output", "--ext-diff")
          : GIT_WRITES,
      ] as const,
  ),
  ["branch", onlyListing],
  ["tag", onlyListing],
  ["remote", (args) => args.every((a) => a === "-v" || a === "--verbose")],
  ["stash", (args) => args[0] === "list" || args[0] === "show"],
  ["worktree", (args) => args[0] === "list"],
  [
    "config",
    (args) =>
      ["--get", "--get-all", "--get-regexp", "--list", "-l"].includes(
        args[0] ?? "",
      ),
  ],
]);

const LISTING_OPTIONS = new Set([
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
  "--no-color",
  "--show-current",
  "-l",
  "--list",
]);

/** `git branch` and `git tag` list when every option is a listing one, and take names only as `--list` patterns. */
function onlyListing(args: readonly string[]): boolean {
  const listing = args.includes("-l") || args.includes("--list");
  return args.every((a) =>
    a.startsWith("-") ? LISTING_OPTIONS.has(a) : listing,
  );
}

export interface ReadOnlyOptions {
  /**
   * Whether git runs in the project's own repository: the call starts at the project's root. Elsewhere git may read
   * a nested repository's configuration, which the agent can write and which can name programs (an fsmonitor).
   */
  gitAtRoot: boolean;
}

/**
 * Whether a shell line provably changes no file: every simple command is a known read-only program (or a git read
 * command) with arguments that keep it so, with no `NAME=value`, no output redirect to a file, no value known only
 * at run time, no inline code or script, and nothing the analysis could not read. Anything else may change the
 * working tree, so the hook keeps a copy of the uncommitted work before it runs (docs/trust-boundary.md).
 */
export function isProvablyReadOnly(
  bash: BashAnalysis,
  options: ReadOnlyOptions,
): boolean {
  if (
    bash.error !== null ||
    bash.writes.length > 0 ||
    bash.inlineCode.length > 0 ||
    bash.scriptFiles.length > 0 ||
    bash.commands.length === 0
  )
    return false;
  const movesFolder = bash.commands.some((c) =>
    MOVES_FOLDER.has(c.argv[0] ?? ""),
  );
  const gitAllowed = options.gitAtRoot && !movesFolder;
  return bash.commands.every((c) => isReadOnlyCommand(c, gitAllowed));
}

function isReadOnlyCommand(cmd: SimpleCommand, gitAllowed: boolean): boolean {
  const [program = "", ...args] = cmd.argv;
  if (
    cmd.dynamic ||
    Object.keys(cmd.env).length > 0 ||
    program.includes("/") ||
    !cmd.redirects.every(isHarmlessRedirect)
  )
    return false;
  if (program === "git") return gitAllowed && isReadOnlyGit(cmd.argv);
  return READ_ONLY.get(program)?.(args) ?? false;
}

function isReadOnlyGit(argv: readonly string[]): boolean {
  // Options before the subcommand: only those that change nothing about what git reads or runs.
  for (const word of argv.slice(1)) {
    if (!word.startsWith("-")) break;
    if (word !== "--no-pager" && word !== "--no-optional-locks") return false;
  }
  const git = gitArgs(argv);
  if (git === null || baseName(argv[0] ?? "") !== "git") return false;
  const [sub = "", ...rest] = git;
  return GIT_READ_ONLY.get(sub)?.(rest) ?? false;
}

const NULL_DEVICES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);

/** Input, here-documents, descriptor copies (`2>&1`, `>&2`) and output thrown away are harmless; a file is not. */
function isHarmlessRedirect(redirect: Redirect): boolean {
  if (redirect.op.startsWith("<") && redirect.op !== "<>") return true;
  if (redirect.op === ">&" || redirect.op === "<&")
    return /^(?:\d+|-)$/.test(redirect.target);
  return NULL_DEVICES.has(redirect.target);
}
