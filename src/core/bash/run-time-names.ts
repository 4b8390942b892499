import type { ShellWord } from "./shell-syntax.ts";

/** How a wrapper (`find -exec`, `xargs`) hands a command the names it finds at run time. */
export interface RunTimeNames {
  /** The word replaced by each name (`{}`, `xargs -I X`), or null. */
  placeholder: string | null;
  /** What the names appended as one more argument stand for (`xargs rm`: `$XARGS`); none when nothing is appended. */
  appended: string[];
  /** What the placeholder stands for in write targets (`plan/*`, `$XARGS`). */
  standsFor: string[];
}

/**
 * The argument lists a command runs with once its wrapper fills in the names it finds at run time: the
 * placeholder replaced by each thing it stands for, or one more argument appended for each thing it may be.
 */
export function runTimeArgvs(node: RunTimeNames, argv: string[]): string[][] {
  const placeholder = node.placeholder;
  let argvs = [argv];
  if (placeholder !== null)
    argvs = node.standsFor.map((name) =>
      argv.map((word) => word.split(placeholder).join(name)),
    );
  return node.appended.length > 0
    ? argvs.flatMap((words) => node.appended.map((name) => [...words, name]))
    : argvs;
}

/** Names a nested wrapper finds (`find {} -exec`), with the outer wrapper's placeholder filled in. */
export function fillIn(node: RunTimeNames, names: string[]): string[] {
  const placeholder = node.placeholder;
  if (placeholder === null) return names;
  return names.flatMap((name) =>
    name.includes(placeholder)
      ? node.standsFor.map((outer) => name.split(placeholder).join(outer))
      : [name],
  );
}

/** The words of a command nested in another's words, with its own source text and positions within it. */
export function ownText(
  text: string,
  words: ShellWord[],
): { text: string; words: ShellWord[] } {
  const first = words[0]?.at;
  const last = words.at(-1)?.at;
  if (first === undefined || last === undefined)
    return { text: words.map((w) => w.value).join(" "), words };
  return {
    text: text.slice(first[0], last[1]),
    words: words.map((w) =>
      w.at ? { ...w, at: [w.at[0] - first[0], w.at[1] - first[0]] } : w,
    ),
  };
}
