import { commandName } from "./command-name.ts";
import { parseInterpreterArgs } from "./interpreter-args.ts";
import { interpreterSpec } from "./interpreters.ts";
import { stdinScripts } from "./stdin-scripts.ts";
import type { ShellRedirect, ShellWord } from "./shell-syntax.ts";
import { splitOptions } from "./split-options.ts";

export interface FoundCode {
  interpreter: string;
  code: string;
}

/**
 * The programs an interpreter command runs from the command line: `python -c`, `node -e/-p`, `perl -e`,
 * `ruby -e`, `php -r`, `osascript -e`, `deno eval`, `bun -e`, or a here-document / here-string on its standard
 * input (`python3 - <<'EOF'`).
 */
export function findInlineCode(
  argv: readonly string[],
  redirects: readonly ShellRedirect[],
  pipedFrom?: readonly ShellWord[],
): FoundCode[] {
  const interpreter = commandName(argv[0]);
  const args = argv.slice(1);
  if (interpreter === "deno") return denoEval(args);
  const spec = interpreterSpec(interpreter);
  if (spec === null) return [];
  // node reads `-pe CODE` as `-p CODE`; it has no other option clusters.
  const words = args.map((a) => (a === "-pe" || a === "-ep" ? "-p" : a));
  const parsed = parseInterpreterArgs(words, spec);
  const code = parsed.stdin ? stdinScripts(redirects, pipedFrom) : parsed.code;
  return code.map((c) => ({ interpreter, code: c }));
}

/** The script file an interpreter runs (`python3 fix.py`, `node build.js`), when it runs no inline code. */
export function interpretedScript(
  argv: readonly string[],
): { path: string; interpreter: string } | null {
  const interpreter = commandName(argv[0]);
  const spec = interpreterSpec(interpreter);
  if (spec === null) return null;
  const parsed = parseInterpreterArgs(argv.slice(1), spec);
  const path = parsed.operands[0];
  if (parsed.code.length > 0 || parsed.stdin || path === undefined) return null;
  return { path, interpreter };
}

function denoEval(args: readonly string[]): FoundCode[] {
  if (args[0] !== "eval") return [];
  const split = splitOptions(args.slice(1), {
    long: [
      "config",
      "ext",
      "import-map",
      "location",
      "seed",
      "v8-flags",
      "cert",
      "env-file",
    ],
    short: "c",
    stopAtOperand: true,
  });
  const code = split.operands[0];
  return code === undefined ? [] : [{ interpreter: "deno", code }];
}
