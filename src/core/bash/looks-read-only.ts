const READ_WORDS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "rg",
  "pwd",
  "echo",
  "find",
  "jq",
]);

const GIT_READ_WORDS = new Set([
  "status",
  "diff",
  "log",
  "show",
  "branch",
  "rev-parse",
  "ls-files",
]);

/** Characters of lists, redirects, expansions, subshells and line continuations. */
const SHELL_SYNTAX = new Set([..."&;<>$`(){}\\\n"]);

/**
 * A first guess, from the raw text, that a shell line only reads: one pipeline of a few common read-only programs
 * with no redirect, variable, substitution, list or subshell. Only a guess: the hook starts git's listing for a
 * snapshot early when it is false, and `isProvablyReadOnly` decides on the parsed line either way. No regular
 * expression: V8 compiles one on first use, a third of a millisecond of every `git status`.
 */
export function looksReadOnly(command: string): boolean {
  for (const char of command) if (SHELL_SYNTAX.has(char)) return false;
  return command.split("|").every((stage) => {
    const words = stage.split(" ").filter((w) => w !== "");
    const [first = "", second = ""] = words;
    return first === "git" ? GIT_READ_WORDS.has(second) : READ_WORDS.has(first);
  });
}
