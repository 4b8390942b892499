import type { Target, TargetRule } from "./file-commands.ts";
import { optionValues, splitOptions } from "./split-options.ts";

const each = (paths: readonly string[], op: Target["op"]): Target[] =>
  paths.filter((p) => p !== "-").map((path) => ({ path, op }));

const AWK_SPEC = {
  short: "fvFilE",
  long: [
    "file",
    "assign",
    "field-separator",
    "include",
    "load",
    "exec",
    "source",
  ],
  stopAtOperand: true,
};

/** `gawk -i inplace PROGRAM FILE...` rewrites each FILE; `var=value` operands are assignments, not files. */
function awk(args: readonly string[]): Target[] {
  const split = splitOptions(args, AWK_SPEC);
  const included = optionValues(split, "i", "--include");
  if (!included.some((name) => /^inplace(?:\.awk)?$/.test(name))) return [];
  const scripted =
    optionValues(split, "f", "E", "--file", "--exec", "--source").length > 0;
  const files = scripted ? split.operands : split.operands.slice(1);
  return each(
    files.filter((f) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(f)),
    "write",
  );
}

/** `ed [-s] [-p PROMPT] FILE`: ed saves to the file it opened; `!cmd` reads a command's output instead. */
function ed(args: readonly string[]): Target[] {
  const split = splitOptions(args, { short: "p", long: ["prompt"] });
  return each(
    split.operands.slice(0, 1).filter((f) => !f.startsWith("!")),
    "write",
  );
}

/** vim option letters whose value is the rest of the cluster or the next word (`-s` only outside Ex mode). */
const VIM_VALUE_LETTERS = "cSsuUiTtqwW";
const VIM_LONG_VALUES = new Set(["--cmd", "--startuptime"]);

/**
 * `vim -es FILE`, `vim -c CMD FILE`, `vim +CMD FILE`, `ex FILE`: editor commands run from the line, so the files
 * it opens may be saved; `-w`/`-W` record keystrokes to a file.
 */
function vim(exProgram: boolean): TargetRule {
  return (args) => {
    const files: string[] = [];
    const logs: string[] = [];
    let scripted = exProgram;
    let exMode = exProgram;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === "--") {
        files.push(...args.slice(i + 1));
        break;
      }
      if (arg.startsWith("+")) scripted = true;
      else if (VIM_LONG_VALUES.has(arg)) {
        scripted ||= arg === "--cmd";
        i++;
      } else if (/^-[a-zA-Z]+$/.test(arg))
        for (let j = 1; j < arg.length; j++) {
          const letter = arg[j]!;
          if (letter === "e" || letter === "E") exMode = scripted = true;
          if (!VIM_VALUE_LETTERS.includes(letter)) continue;
          // In Ex mode `-s` means silent; elsewhere it reads keystrokes from a file.
          if (letter === "s" && exMode) continue;
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          scripted ||= "cSs".includes(letter);
          if ((letter === "w" || letter === "W") && value !== undefined)
            logs.push(value);
          break;
        }
      else if (!arg.startsWith("-")) files.push(arg);
    }
    return [...(scripted ? each(files, "write") : []), ...each(logs, "write")];
  };
}

/** Editors that change files in place when the command line tells them what to do. */
export const EDITOR_COMMANDS: Readonly<Record<string, TargetRule>> = {
  awk,
  gawk: awk,
  ed,
  red: ed,
  ex: vim(true),
  vi: vim(false),
  vim: vim(false),
  nvim: vim(false),
};
