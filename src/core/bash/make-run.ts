import { commandName } from "./command-name.ts";

/** What a `make` command runs: the targets named (none: the default goal), where, and from which file. */
export interface MakeRun {
  /** `-C DIR`, or null for the current folder. */
  dir: string | null;
  /** `-f FILE`, or null for make's own choice (GNUmakefile, makefile, Makefile). */
  file: string | null;
  targets: string[];
}

/** Options of GNU make that take a value as the next word. */
const VALUE_OPTIONS = new Set(["-C", "-f", "-I", "-o", "-W", "-l", "-j"]);
const LONG_VALUE =
  /^--(directory|file|makefile|include-dir|old-file|assume-old|new-file|assume-new|what-if|load-average|jobs)=(.*)$/;

/** The targets `make ...` (also `gmake`) would build, or null for another command. */
export function makeRun(argv: readonly string[]): MakeRun | null {
  const name = commandName(argv[0]);
  if (name !== "make" && name !== "gmake") return null;
  let dir: string | null = null;
  let file: string | null = null;
  const targets: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const long = LONG_VALUE.exec(arg);
    if (long) {
      if (long[1] === "directory") dir = long[2]!;
      else if (long[1] === "file" || long[1] === "makefile") file = long[2]!;
    } else if (VALUE_OPTIONS.has(arg)) {
      // `-j` and `-l` take an optional number; anything else after them is a target.
      const value = args[i + 1];
      if (
        (arg === "-j" || arg === "-l") &&
        !/^\d+(?:\.\d+)?$/.test(value ?? "")
      )
        continue;
      i++;
      if (arg === "-C") dir = value ?? null;
      else if (arg === "-f") file = value ?? null;
    } else if (/^-[Cf]./.test(arg)) {
      if (arg[1] === "C") dir = arg.slice(2);
      else file = arg.slice(2);
    } else if (!arg.startsWith("-") && !arg.includes("=")) targets.push(arg);
  }
  return { dir, file, targets };
}
