import { commandName } from "./command-name.ts";
import type { ShellRedirect, ShellWord } from "./shell-syntax.ts";
import { optionValues, splitOptions } from "./split-options.ts";
import { stdinScripts } from "./stdin-scripts.ts";

/** Shells that take `-c CODE`, a script file or a script on standard input. */
export const SHELLS = new Set([
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "ash",
  "mksh",
]);

/**
 * Shell code a command runs that the line carries as a string: `bash -c CODE`, `sh <<'EOF'`, `eval ARGS`,
 * `su -c CODE`, `script -c CODE`, `env -S CODE`, `watch CMD`. The analysis parses each one again.
 */
export function nestedScripts(
  argv: readonly string[],
  redirects: readonly ShellRedirect[],
  pipedFrom?: readonly ShellWord[],
): string[] {
  const name = commandName(argv[0]);
  const args = argv.slice(1);
  if (SHELLS.has(name)) return shellScripts(args, redirects, pipedFrom);
  switch (name) {
    case "eval":
      return args.length > 0 ? [args.join(" ")] : [];
    case "su":
      return optionValues(
        splitOptions(args, {
          short: "cgGsw",
          long: ["command", "session-command", "group", "shell"],
        }),
        "c",
        "--command",
        "--session-command",
      );
    case "script":
      return optionValues(
        splitOptions(args, {
          short: "cEIOBTm",
          long: ["command", "echo", "log-in", "log-out", "log-io"],
        }),
        "c",
        "--command",
      );
    case "env": {
      const split = splitOptions(args, {
        short: "uCS",
        long: ["unset", "chdir", "split-string"],
        stopAtOperand: true,
      });
      const strings = optionValues(split, "S", "--split-string");
      return strings.length > 0
        ? [[...strings, ...split.operands].join(" ")]
        : [];
    }
    case "watch": {
      const split = splitOptions(args, {
        short: "nq",
        long: ["interval", "equexit"],
        stopAtOperand: true,
      });
      return split.operands.length > 0 ? [split.operands.join(" ")] : [];
    }
    default:
      return [];
  }
}

/** `bash [options] -c CODE`, or a shell reading its script from a here-document when it names no script file. */
function shellScripts(
  args: readonly string[],
  redirects: readonly ShellRedirect[],
  pipedFrom?: readonly ShellWord[],
): string[] {
  let command = false;
  let stdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--" || arg === "-") {
      i++;
      break;
    }
    if (arg === "--rcfile" || arg === "--init-file") i++;
    else if (arg.startsWith("--")) continue;
    else if (/^[-+][a-zA-Z]+$/.test(arg)) {
      command ||= arg.startsWith("-") && arg.includes("c");
      stdin ||= arg.startsWith("-") && arg.includes("s");
      if (/[oO]/.test(arg)) i++;
    } else break;
  }
  const operands = args.slice(i);
  if (command) return operands.slice(0, 1);
  return operands.length === 0 || stdin
    ? stdinScripts(redirects, pipedFrom)
    : [];
}
