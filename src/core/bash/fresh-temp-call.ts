import type { Command, CommandExpansionPart, Word, WordPart } from "unbash";

/**
 * What `"$d"` stands for after `d=$(mktemp ...)`: a path mktemp has just made in the temp folder, so no file there
 * existed before the line ran. A shell word never holds a NUL, so no command line can spell this marker itself; the
 * app layer puts the hook's temp folder in its place.
 */
export const FRESH_TEMP = "$\0mktemp";

const STATIC_PARTS = new Set(["Literal", "SingleQuoted", "AnsiCQuoted"]);

/** mktemp's options that neither pick the folder nor print anything but the new name. */
const HARMLESS_FLAGS = new Set([
  "-d",
  "-q",
  "-u",
  "--directory",
  "--quiet",
  "--dry-run",
]);

/**
 * Whether `word` is exactly `$(mktemp ...)` (or `"$(mktemp ...)"`, or in backticks) with static arguments that make
 * the new name in the temp folder: no template, or a plain file name with `-t` or a bare `--tmpdir`. A template
 * without them is relative to the working directory, and `-p DIR`/`--tmpdir=DIR` name another folder.
 */
export function isFreshTempCall(word: Word): boolean {
  const part = onlyPartOf(word);
  return part !== null && isFreshTempExpansion(part);
}

/** The `$(...)` that is all of `word`, or null. */
function onlyPartOf(word: Word): CommandExpansionPart | null {
  const parts = word.parts ?? [];
  if (parts.length !== 1) return null;
  let part: WordPart | undefined = parts[0];
  if (part?.type === "DoubleQuoted")
    part = part.parts.length === 1 ? part.parts[0] : undefined;
  return part?.type === "CommandExpansion" ? part : null;
}

/** {@link isFreshTempCall} for the `$(mktemp ...)` part itself, wherever it stands in a word. */
export function isFreshTempExpansion(part: CommandExpansionPart): boolean {
  const command = onlyCommandIn(part);
  if (command === null) return false;
  if (command.prefix.some((item) => item.type === "Assignment")) return false;
  // `2>&1` or `2>/dev/stdout` would put an error message, words and all, into the variable.
  const quiet = command.redirects.every(
    (r) =>
      r.type === "Redirect" &&
      r.descriptor?.type === "FileDescriptor" &&
      r.descriptor.value === 2 &&
      (r.operator === ">" || r.operator === ">>") &&
      r.target !== undefined &&
      isStatic(r.target) &&
      r.target.value === "/dev/null",
  );
  if (!quiet || !command.name || !isStatic(command.name)) return false;
  if (command.name.value !== "mktemp") return false;
  const args: string[] = [];
  for (const arg of command.args) {
    if (arg.type !== "Word" || !isStatic(arg)) return false;
    args.push(arg.value);
  }
  return placesInTempFolder(args);
}

function onlyCommandIn(part: CommandExpansionPart): Command | null {
  const statements = part.script?.commands ?? [];
  const statement = statements.length === 1 ? statements[0] : undefined;
  if (!statement || statement.background) return null;
  return statement.command.type === "Command" ? statement.command : null;
}

function placesInTempFolder(args: readonly string[]): boolean {
  let inTempFolder = false;
  let template: string | null = null;
  for (const arg of args) {
    if (arg === "--tmpdir" || /^-[dqu]*t[dqut]*$/.test(arg))
      inTempFolder = true;
    else if (HARMLESS_FLAGS.has(arg) || /^-[dqu]+$/.test(arg)) continue;
    else if (arg.startsWith("-") || template !== null) return false;
    else template = arg;
  }
  if (template === null) return true;
  // BSD's `-t PREFIX` and GNU's `-t TEMPLATE` both make one new name in the folder: a plain name cannot leave it.
  return (
    inTempFolder && /^[\w.+-]+$/.test(template) && !/^\.{1,2}$/.test(template)
  );
}

function isStatic(word: Word): boolean {
  return (word.parts ?? []).every(
    (part) =>
      STATIC_PARTS.has(part.type) ||
      (part.type === "DoubleQuoted" &&
        part.parts.every((child) => child.type === "Literal")),
  );
}

/**
 * The rest of a path that starts with {@link FRESH_TEMP} (`/out.txt`, or "" for the bare name), or null when the
 * path does not, or when a `..` segment would climb out of the fresh name into folders that already hold files.
 */
export function freshTempRest(path: string): string | null {
  if (!path.startsWith(FRESH_TEMP)) return null;
  const rest = path.slice(FRESH_TEMP.length);
  if (rest !== "" && !rest.startsWith("/")) return null;
  return rest.split("/").includes("..") || rest.includes(FRESH_TEMP)
    ? null
    : rest;
}

/**
 * Whether a word holds {@link FRESH_TEMP} once, where a command reads it as a path: the whole word, or after an
 * option's `=` (`of=`, `--output=`), followed by nothing or by a path with no `..` segment.
 */
export function isPlacedFreshTemp(word: string): boolean {
  const at = word.indexOf(FRESH_TEMP);
  if (at === -1) return false;
  const before = word.slice(0, at);
  return (
    (before === "" || before.endsWith("=")) &&
    freshTempRest(word.slice(at)) !== null
  );
}
