import { baseName, gitArgs } from "../guards/command-words.ts";
import { toAbsolute } from "../paths/repo-path.ts";
import { shellGlob, type ShellGlob } from "../paths/shell-glob.ts";
import { expandTilde } from "./expand-tilde.ts";
import type { SimpleCommand } from "./types.ts";

// The targets a parsed Bash line names, worked out without touching the disk. app/hook/collect-bash-changes.ts
// resolves them against the disk.

/** A word the shell expands at run time: a variable, a command substitution or a glob. */
export const DYNAMIC = /[$*?[`]/;
/** A word whose value is known only at run time. */
export const VARIABLE = /[$`]/;

/** The start folder and every folder `cd`/`pushd` leads to, each resolved against the one before. */
export function cdFolders(
  start: string,
  commands: readonly SimpleCommand[],
  homeDir: string | null = null,
  projectDir?: string,
  tmpDir: string | null = null,
): string[] {
  const found = [start];
  let current = start;
  for (const cmd of commands) {
    const name = cmd.argv[0];
    const raw = cmd.argv[1] ?? (name === "cd" ? "~" : undefined);
    const target =
      raw === undefined
        ? undefined
        : expandTilde(raw, current, homeDir, projectDir, tmpDir);
    if (
      (name === "cd" || name === "pushd") &&
      target &&
      !DYNAMIC.test(target)
    ) {
      current = toAbsolute(current, target);
      found.push(current);
    }
  }
  return [...new Set(found)];
}

/** The folder a dynamic path certainly lies in: `dist/*.js` → `dist`, `$F` → `.`. */
export function staticFolder(raw: string): string {
  const prefix = raw.slice(0, raw.search(DYNAMIC));
  const slash = prefix.lastIndexOf("/");
  return slash === -1 ? "." : prefix.slice(0, slash) || "/";
}

/**
 * For `find ... -name PATTERN -delete`, which files below its roots it can reach: those whose name matches one of
 * its `-name`/`-iname` patterns; any file when it has none.
 */
export function findNameFilter(
  commands: readonly SimpleCommand[],
  text: string,
): (file: string) => boolean {
  const find = commands.find(
    (c) => c.text === text && baseName(c.argv[0] ?? "") === "find",
  );
  if (!find) return () => true;
  const patterns: ShellGlob[] = [];
  find.argv.forEach((arg, i) => {
    const pattern = find.argv[i + 1];
    if ((arg === "-name" || arg === "-iname") && pattern !== undefined)
      patterns.push(
        shellGlob(pattern, { dotfiles: true, ignoreCase: arg === "-iname" }),
      );
  });
  if (patterns.length === 0) return () => true;
  return (file) => {
    const name = file.slice(file.lastIndexOf("/") + 1);
    return patterns.some((p) => p.matches(name));
  };
}

/** What `ln` links to: a later write through the link would reach the target unchecked. */
export function linkTargets(cmd: SimpleCommand): string[] {
  if (baseName(cmd.argv[0] ?? "") !== "ln") return [];
  const args: string[] = [];
  let targetDir = false;
  for (const arg of cmd.argv.slice(1)) {
    if (arg === "-t" || arg === "--target-directory") {
      targetDir = true;
      continue;
    }
    if (arg.startsWith("-")) continue;
    args.push(arg);
  }
  // Without -t, the last word is the link's name; everything before it is a target.
  return targetDir ? args.slice(1) : args.length > 1 ? args.slice(0, -1) : args;
}

/** The patch files `git apply` reads, or none when the command is not an apply that changes files. */
export function gitApplyPatches(argv: readonly string[]): string[] {
  const git = gitArgs([...argv]);
  if (
    !git ||
    git[0] !== "apply" ||
    git.includes("--check") ||
    git.includes("--stat")
  )
    return [];
  return git.slice(1).filter((a) => !a.startsWith("-"));
}

/** The files a patch changes, from its `+++ b/...` and `--- a/...` lines. */
export function patchTargets(text: string): string[] {
  const files: string[] = [];
  for (const match of text.matchAll(/^(?:\+\+\+|---) (?:[ab]\/)?(\S+)/gm))
    if (match[1] && match[1] !== "/dev/null") files.push(match[1]);
  return files;
}

/**
 * Guarded files interpreter code names, also when it builds the path from parts (`Path('plan', 'playbook-x.md')`,
 * `os.chdir('plan')`): a path-like word, `state.md`, a playbook's file name, or `.claude`.
 */
export function mentionsIn(
  code: string,
  guarded: readonly string[],
  projectDir: string,
): string[] {
  const words = code.match(/[\w.~\-/\\]+/g) ?? [];
  const mentions = new Set(
    words.filter((w) => /[/\\]/.test(w) || /\.(?:md|json|txt)$/i.test(w)),
  );
  const root = projectDir.replace(/\/$/, "");
  for (const file of guarded) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (code.includes(name)) mentions.add(file);
  }
  if (/\.claude\b/.test(code)) mentions.add(`${root}/.claude/playbook`);
  return [...mentions];
}
