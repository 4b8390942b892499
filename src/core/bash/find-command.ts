import { commandName } from "./command-name.ts";
import type { Target } from "./file-commands.ts";

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

/** `find ROOTS... -delete` or `-exec rm {} ;` deletes inside every root; `-fprint FILE` writes FILE. */
export function findTargets(args: readonly string[]): Target[] {
  let i = 0;
  while (i < args.length && /^-[HLP]+$|^-O\d*$/.test(args[i]!)) i++;
  if (args[i] === "-D") i += 2;
  const roots: string[] = [];
  while (i < args.length && !/^[-(!,]/.test(args[i]!)) roots.push(args[i++]!);
  const expression = args.slice(i);
  const deletes =
    expression.includes("-delete") ||
    findExecRanges(expression).some(([start]) =>
      DELETING.has(commandName(expression[start])),
    );
  const targets: Target[] = deletes
    ? (roots.length > 0 ? roots : ["."]).map((path) => ({ path, op: "delete" }))
    : [];
  expression.forEach((word, k) => {
    const file = expression[k + 1];
    if (/^-f(?:print0?|printf|ls)$/.test(word) && file !== undefined)
      targets.push({ path: file, op: "write" });
  });
  return targets;
}
