import { dotfileVariants, shellGlob } from "../paths/shell-glob.ts";
import { baseName, commandName, inFolder } from "./command-name.ts";
import type { Target } from "./file-commands.ts";
import { FRESH_TEMP } from "./fresh-temp-call.ts";
import type { ShellWord } from "./shell-syntax.ts";

const ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const DELETING = new Set(["rm", "unlink", "rmdir", "shred"]);

/** Where each command of `find ... -exec CMD ARGS ;` (or `+`) sits in find's arguments, as [start, end). */
export function findExecRanges(args: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!ACTIONS.has(args[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < args.length && args[end] !== ";" && args[end] !== "+") end++;
    if (end > start) ranges.push([start, end]);
    i = end;
  }
  return ranges;
}

/** The folders `find` searches (`.` when it names none) and the expression after them. */
function findRoots(args: readonly string[]): {
  roots: string[];
  expression: string[];
} {
  let i = 0;
  while (i < args.length && /^-[HLP]+$|^-O\d*$/.test(args[i]!)) i++;
  if (args[i] === "-D") i += 2;
  const roots: string[] = [];
  while (i < args.length && !/^[-(!,]/.test(args[i]!)) roots.push(args[i++]!);
  return { roots: roots.length > 0 ? roots : ["."], expression: args.slice(i) };
}

/** Actions that print something besides the paths found (what `-exec` runs prints too), or read the roots from a file. */
const OTHER_OUTPUT = new Set([
  "-printf",
  "-ls",
  "-fls",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-files0-from",
  "-help",
  "--help",
  "-version",
  "--version",
]);

/**
 * The folders whose paths `find ROOTS... -print0` prints and nothing else, for the `xargs -0` reading them: every
 * name it prints starts with one of them. Null for another command, for a find that prints anything else, or with
 * a word known only at run time (a fresh temp folder from `mktemp` excepted).
 */
export function findPrintedRoots(words: readonly ShellWord[]): string[] | null {
  if (commandName(words[0]?.value) !== "find") return null;
  const args = words.slice(1);
  if (args.some((w) => w.dynamic && !w.value.startsWith(FRESH_TEMP)))
    return null;
  const values = args.map((w) => w.value);
  if (!values.includes("-print0") || values.some((v) => OTHER_OUTPUT.has(v)))
    return null;
  return findRoots(values).roots;
}

/** `find ROOTS... -delete` or `-exec rm {} ;` deletes inside every root; `-fprint FILE` writes FILE. */
export function findTargets(args: readonly string[]): Target[] {
  const { roots, expression } = findRoots(args);
  const deletes =
    expression.includes("-delete") ||
    findExecRanges(expression).some(([start]) =>
      DELETING.has(commandName(expression[start])),
    );
  const targets: Target[] = deletes
    ? roots.map((path) => ({ path, op: "delete" }))
    : [];
  expression.forEach((word, k) => {
    const file = expression[k + 1];
    if (/^-f(?:print0?|printf|ls)$/.test(word) && file !== undefined)
      targets.push({ path: file, op: "write" });
  });
  return targets;
}

/** Operators that let a file through without passing every test (`-o`, `!`, groups): names then cannot narrow. */
const BRANCHING = new Set(["-o", "-or", ",", "!", "-not", "(", ")"]);

/**
 * What the `{}` of `find ROOTS... -exec` stands for, as globs: PATTERN at any depth below each root when every file it runs on must
 * pass a `-name`/`-iname` test (a conjunction before the action), else anything below each root (`ROOT/*`).
 */
export function findFoundNames(args: readonly string[]): string[] {
  const { roots, expression } = findRoots(args);
  const action = expression.findIndex((w) => ACTIONS.has(w));
  const tests = action === -1 ? expression : expression.slice(0, action);
  const names: string[] = [];
  if (!tests.some((w) => BRANCHING.has(w)))
    tests.forEach((word, k) => {
      const pattern = tests[k + 1];
      if (pattern === undefined || pattern.includes("/")) return;
      if (word === "-name") names.push(pattern);
      if (word === "-iname") names.push(caseless(pattern));
    });
  if (names.length === 0) return roots.map((root) => inFolder(root, "**"));
  // Every test must pass, so one name pattern already bounds what `{}` can be; the root is tested too. find's
  // wildcards match dotfiles, which a shell glob's do not: the dotfile variants say those names.
  const name = names[0]!;
  const matches = shellGlob(name, { dotfiles: true });
  return roots.flatMap((root) => [
    ...(matches.matches(baseName(root)) ? [root] : []),
    ...[name, ...dotfileVariants(name)].map((n) => inFolder(root, `**/${n}`)),
  ]);
}

/** `*.MD` matched without case, as a glob: `*.[mM][dD]`. */
function caseless(pattern: string): string {
  return pattern.replace(/[a-z]/gi, (c) =>
    c.toLowerCase() === c.toUpperCase()
      ? c
      : `[${c.toLowerCase()}${c.toUpperCase()}]`,
  );
}
