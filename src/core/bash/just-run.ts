import { commandName } from "./command-name.ts";

/** What a `just` command runs: recipe names (or arguments: just tells them apart), where, from which file. */
export interface JustRun {
  /** `-d DIR` / `--working-directory DIR`, or null. */
  dir: string | null;
  /** `-f FILE` / `--justfile FILE`, or null for `justfile` (any case) in the folder or a parent. */
  file: string | null;
  /** The words after the options: recipe names and their arguments. */
  words: string[];
}

const VALUE_OPTIONS = new Set([
  "-f",
  "--justfile",
  "-d",
  "--working-directory",
  "--shell",
  "--shell-arg",
  "--dotenv-filename",
  "--dotenv-path",
  "-E",
  "--color",
  "--chooser",
  "--list-heading",
  "--list-prefix",
  "--command-color",
]);
/** Options that list, show or edit recipes instead of running them. */
const NO_RUN = new Set([
  "-l",
  "--list",
  "-s",
  "--show",
  "--summary",
  "--dump",
  "--evaluate",
  "--variables",
  "--fmt",
  "--init",
  "-e",
  "--edit",
  "--completions",
  "--choose",
  "-h",
  "--help",
  "-V",
  "--version",
  "-n",
  "--dry-run",
]);

/** The recipes `just ...` would run, or null for another command or one that runs none (`just --list`). */
export function justRun(argv: readonly string[]): JustRun | null {
  if (commandName(argv[0]) !== "just") return null;
  let dir: string | null = null;
  let file: string | null = null;
  const words: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (NO_RUN.has(arg)) return null;
    const inline = /^(--justfile|--working-directory)=(.*)$/.exec(arg);
    if (inline) {
      if (inline[1] === "--justfile") file = inline[2]!;
      else dir = inline[2]!;
    } else if (arg === "--set") i += 2;
    else if (VALUE_OPTIONS.has(arg)) {
      const value = args[++i] ?? null;
      if (arg === "-f" || arg === "--justfile") file = value;
      else if (arg === "-d" || arg === "--working-directory") dir = value;
    } else if (!arg.startsWith("-") && !/^[A-Za-z_][\w-]*=/.test(arg))
      words.push(arg);
  }
  return { dir, file, words };
}
