import { forEachChild } from "unbash";
import type {
  AndOr,
  Assignment,
  Command,
  CommandExpansionPart,
  For,
  ParameterExpansionPart,
  Script,
  SimpleExpansionPart,
  SyntaxNode,
  Word,
} from "unbash";
import {
  FRESH_TEMP,
  isFreshTempCall,
  isFreshTempExpansion,
} from "./fresh-temp-call.ts";

/** A variable use whose values the line itself shows. */
export interface KnownUse {
  /** The binding it reads: every use of one binding takes the same value in a command. */
  binding: object;
  /** Each value it can have there: a loop's words, or a fresh temp path and "" when mktemp may have failed. */
  values: readonly string[];
}

/** The known uses of a line, by their `$d` or `${d}` node. */
export type LineBindings = ReadonlyMap<SyntaxNode, KnownUse>;

/**
 * Variables the line inherits from the shell that runs it, each with every value it may have there ("" for unset):
 * `TMPDIR`, the temp folder Claude Code gives its sandboxed shell.
 */
export type InheritedVariables = Readonly<Record<string, readonly string[]>>;

const NONE: LineBindings = new Map();

/**
 * Builtins that bind variables in ways this pass does not follow (`read d`, `declare d=...`), run code it cannot
 * see (`eval`, `source`, `trap`), change what a command name runs (`alias`, `hash`, `enable`), or reach builtins by
 * another name (`command`, `builtin`). A line holding one resolves nothing.
 */
const OPAQUE_BUILTINS = new Set([
  "eval",
  "source",
  ".",
  "read",
  "mapfile",
  "readarray",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "unset",
  "let",
  "getopts",
  "trap",
  "alias",
  "hash",
  "enable",
  "command",
  "builtin",
  "compgen",
  "fc",
]);

/** Variables the shell sets itself, keeps read-only, or that change how every word splits. */
const SHELL_OWNED =
  /^(?:BASH\w*|COMP_\w+|READLINE_\w+|PWD|OLDPWD|IFS|RANDOM|SRANDOM|SECONDS|LINENO|EPOCHSECONDS|EPOCHREALTIME|REPLY|OPTARG|OPTIND|OPTERR|HISTCMD|FUNCNAME|GROUPS|PIPESTATUS|DIRSTACK|UID|EUID|PPID|SHELLOPTS|SHLVL|COLUMNS|LINES|MAPFILE|COPROC|_)$/;

/** `[[ ]]` operators that evaluate their operands as arithmetic, which can assign (`[[ 1 -eq d=2 ]]`). */
const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const STATIC_PARTS = new Set(["Literal", "SingleQuoted", "AnsiCQuoted"]);

type Use = SimpleExpansionPart | ParameterExpansionPart;

interface FoundUse {
  part: Use;
  name: string;
  /** Inside double quotes: no word splitting, no globbing. */
  quoted: boolean;
}

/** `${NAME:-WORD}` or `${NAME-WORD}` with a static WORD: the word where NAME is unset or empty. */
interface DefaultUse {
  part: ParameterExpansionPart;
  name: string;
  fallback: string;
}

interface Scan {
  root: Script;
  opaque: boolean;
  /** How many places bind each name, anywhere in the line. */
  sites: Map<string, number>;
  loops: For[];
  uses: FoundUse[];
  defaults: DefaultUse[];
  /** `$(mktemp ...)` substitutions that make a new name in the temp folder, outside assignments. */
  freshCalls: CommandExpansionPart[];
  /** Where assignments' values stand: a `$(mktemp)` there is the assignment's to read. */
  assigned: (readonly [number, number])[];
  /** The uses of each name, so a long line costs one pass per use, not one per use and binding. */
  usesOf: Map<string, FoundUse[]>;
}

interface StaticValue {
  value: string;
  /** The word holds an unquoted glob, which a `for` list expands to file names before the body sees them. */
  globbed: boolean;
}

/**
 * The variable uses of a line whose value the line itself shows, found before its commands are read. A name counts
 * only when exactly one place in the whole line binds it and the line holds nothing that binds or runs code in ways
 * this pass does not follow (see {@link OPAQUE_BUILTINS}, functions, arithmetic, `${d:=x}`). Its binding is either a
 * plain assignment statement at the top level (alone, or first in an `&&`/`||` list, so it always runs; not
 * backgrounded) whose value is a static word without blanks or `$(mktemp ...)` into the temp folder, read after it;
 * or `for NAME in WORDS` with static words, read in its body. A variable of `inherited` that the line never binds takes
 * the values given for it (`${NAME:-WORD}` takes WORD where one is ""), and a `$(mktemp ...)` into the temp folder
 * standing as a path of its own is a fresh temp path (or "", when mktemp fails), unless the line binds TMPDIR or PATH.
 * Lines without a `$` are passed over at once.
 */
export function findLineBindings(
  script: Script,
  source: string,
  inherited: InheritedVariables = {},
): LineBindings {
  if (!source.includes("$") || source.includes("\0")) return NONE;
  const scan: Scan = {
    root: script,
    opaque: false,
    sites: new Map(),
    loops: [],
    uses: [],
    defaults: [],
    freshCalls: [],
    assigned: [],
    usesOf: new Map(),
  };
  scanNode(script, scan, false);
  if (
    scan.opaque ||
    scan.sites.has("IFS") ||
    scan.uses.length + scan.defaults.length + scan.freshCalls.length === 0
  )
    return NONE;
  for (const use of scan.uses) {
    const same = scan.usesOf.get(use.name) ?? [];
    same.push(use);
    scan.usesOf.set(use.name, same);
  }
  const known = new Map<SyntaxNode, KnownUse>();
  const once = (name: string) =>
    scan.sites.get(name) === 1 && !SHELL_OWNED.test(name);
  for (const { assignment, end, afterSuccess } of plainAssignments(script)) {
    if (!once(assignment.name)) continue;
    const value = assignedValue(assignment, scan);
    if (value === null) continue;
    for (const use of scan.usesOf.get(assignment.name) ?? []) {
      if (use.part.pos < end) continue;
      // A failed mktemp leaves the variable empty; only the commands an `&&` chain runs after it are spared that.
      const spared =
        afterSuccess !== null &&
        use.part.pos >= afterSuccess[0] &&
        use.part.end <= afterSuccess[1];
      const values = value === FRESH_TEMP && !spared ? [value, ""] : [value];
      known.set(use.part, { binding: assignment, values });
    }
  }
  for (const loop of scan.loops) {
    const name = loop.name.value;
    const words = once(name) ? loopWords(loop) : null;
    if (words === null) continue;
    const globbed = words.some((w) => w.globbed);
    const values = words.map((w) => w.value);
    for (const use of scan.usesOf.get(name) ?? []) {
      if (use.part.pos < loop.body.pos || use.part.end > loop.body.end)
        continue;
      // A file name a glob found splits and globs again where `$f` stands unquoted.
      if (globbed && !use.quoted) continue;
      known.set(use.part, { binding: loop, values });
    }
  }
  for (const [name, values] of Object.entries(inherited)) {
    if (scan.sites.has(name) || values.length === 0) continue;
    const binding = { inherited: name };
    for (const use of scan.usesOf.get(name) ?? [])
      known.set(use.part, { binding, values });
    for (const use of scan.defaults)
      if (use.name === name)
        // Its own binding: `$TMPDIR` and `${TMPDIR:-/tmp}` in one command take different values.
        known.set(use.part, {
          binding: { inherited: name, fallback: use.fallback },
          values: values.map((v) => (v === "" ? use.fallback : v)),
        });
  }
  // mktemp reads TMPDIR, and PATH says which mktemp runs.
  if (!scan.sites.has("TMPDIR") && !scan.sites.has("PATH"))
    for (const part of scan.freshCalls)
      if (
        !scan.assigned.some(([pos, end]) => part.pos >= pos && part.end <= end)
      )
        known.set(part, { binding: part, values: [FRESH_TEMP, ""] });
  return known;
}

function scanNode(node: SyntaxNode, scan: Scan, quoted: boolean): void {
  if (scan.opaque) return;
  let inner = quoted;
  switch (node.type) {
    case "Function":
    case "Coproc":
    case "Select":
    case "ArithmeticCommand":
    case "ArithmeticFor":
    case "ArithmeticExpansion":
    case "ArithmeticCommandExpansion":
      scan.opaque = true;
      return;
    case "Script":
      // Escaped backticks carry their own decoded source: positions inside do not compare with the line's.
      if (node !== scan.root && node.source !== undefined) {
        const uses = scan.uses.length;
        forEachChild(node, (child) => scanNode(child, scan, false));
        scan.uses.length = uses;
        return;
      }
      break;
    case "Command":
      if (isOpaqueCommand(node)) scan.opaque = true;
      break;
    case "Assignment": {
      scan.assigned.push([node.value.pos, node.value.end]);
      bind(scan, node.name);
      if (node.index && !isPlainIndex(node.index)) scan.opaque = true;
      break;
    }
    case "For":
      bind(scan, node.name.value);
      scan.loops.push(node);
      break;
    case "Redirect":
    case "HereString":
    case "HereDoc":
      if (node.descriptor?.type === "FileDescriptorVariable")
        bind(scan, node.descriptor.name);
      break;
    case "TestBinary":
      if (ARITHMETIC_TESTS.has(node.operator)) scan.opaque = true;
      break;
    case "TestUnary":
      if (node.operator === "-v" || node.operator === "-R") scan.opaque = true;
      break;
    case "ParameterExpansion": {
      const fallback = defaultWord(node);
      if (isOpaqueExpansion(node)) scan.opaque = true;
      else if (!node.prefix && !node.index && !node.operation)
        scan.uses.push({ part: node, name: node.parameter, quoted });
      else if (fallback !== null)
        scan.defaults.push({ part: node, name: node.parameter, fallback });
      break;
    }
    case "SimpleExpansion": {
      const name = node.text.slice(1);
      if (NAME.test(name)) scan.uses.push({ part: node, name, quoted });
      break;
    }
    case "DoubleQuoted":
    case "LocaleString":
      inner = true;
      break;
    case "CommandExpansion":
      if (isFreshTempExpansion(node)) scan.freshCalls.push(node);
      inner = false;
      break;
    case "ProcessSubstitution":
      inner = false;
      break;
  }
  forEachChild(node, (child) => scanNode(child, scan, inner));
}

/** The WORD of `${NAME:-WORD}` or `${NAME-WORD}` when it is static and the expansion plain, else null. */
function defaultWord(node: ParameterExpansionPart): string | null {
  const operation = node.operation;
  if (
    node.prefix ||
    node.index ||
    operation?.type !== "Default" ||
    (operation.operator !== ":-" && operation.operator !== "-") ||
    !NAME.test(node.parameter)
  )
    return null;
  const value = staticValue(operation.operand);
  return value === null || value.globbed || /[*?[]/.test(value.value)
    ? null
    : value.value;
}

function bind(scan: Scan, name: string): void {
  scan.sites.set(name, (scan.sites.get(name) ?? 0) + 1);
}

function isOpaqueCommand(node: Command): boolean {
  if (!node.name) return false;
  // `$cmd d` could be any builtin.
  if (!isStatic(node.name)) return true;
  const name = node.name.value;
  if (OPAQUE_BUILTINS.has(name)) return true;
  const args = node.args.map((a) => (a.type === "Word" ? a.value : a.text));
  if (name === "printf") return args.some((a) => a.startsWith("-v"));
  if (name === "wait") return args.some((a) => /^-\w*p/.test(a));
  // `test -v 'a[d=1]'` evaluates the subscript, which can assign.
  if (name === "test" || name === "[")
    return args.some((a) => a === "-v" || a === "-R");
  return false;
}

function isOpaqueExpansion(node: ParameterExpansionPart): boolean {
  const operation = node.operation;
  if (
    operation?.type === "Default" &&
    (operation.operator === "=" || operation.operator === ":=")
  )
    return true;
  // Offsets, subscripts and `${!ref}` (which may name `a[d=1]`) are evaluated as arithmetic; `@P` expands a prompt.
  if (operation?.type === "Slice" || operation?.type === "Transform")
    return true;
  if (node.prefix === "!" && operation?.type !== "Names") return true;
  return node.index !== undefined && !isPlainIndex(node.index);
}

function isPlainIndex(index: Word): boolean {
  return isStatic(index) && /^(?:\d+|@|\*)$/.test(index.value);
}

interface PlainAssignment {
  assignment: Assignment;
  /** Where the assignment statement ends: uses after it read the value. */
  end: number;
  /** The commands of its `&&`/`||` list that run only when it succeeded, as [start, end). */
  afterSuccess: readonly [number, number] | null;
}

/** Assignments standing alone as a command at the top level, or first in a list there: they always run, in this shell. */
function plainAssignments(script: Script): PlainAssignment[] {
  const found: PlainAssignment[] = [];
  for (const statement of script.commands) {
    if (statement.background) continue;
    const list = statement.command.type === "AndOr" ? statement.command : null;
    const first = list ? list.commands[0] : statement.command;
    if (
      first?.type !== "Command" ||
      first.name ||
      first.suffix.length > 0 ||
      first.redirects.length > 0
    )
      continue;
    for (const item of first.prefix)
      if (item.type === "Assignment")
        found.push({
          assignment: item,
          end: first.end,
          afterSuccess: list ? afterSuccess(list) : null,
        });
  }
  return found;
}

function afterSuccess(list: AndOr): readonly [number, number] | null {
  let last = 0;
  while (list.operators[last] === "&&") last++;
  const from = list.commands[1];
  const to = list.commands[last];
  return last === 0 || !from || !to ? null : [from.pos, to.end];
}

/** The value an assignment gives, when it is known: a static word, or {@link FRESH_TEMP}. */
function assignedValue(assignment: Assignment, scan: Scan): string | null {
  if (assignment.append || assignment.index) return null;
  const word = assignment.value;
  if (word.type !== "Word") return null;
  if (isFreshTempCall(word))
    // mktemp reads TMPDIR, and PATH says which mktemp runs.
    return scan.sites.has("TMPDIR") || scan.sites.has("PATH")
      ? null
      : FRESH_TEMP;
  return staticValue(word)?.value ?? null;
}

function loopWords(loop: For): StaticValue[] | null {
  const words = loop.wordlist ?? [];
  const values: StaticValue[] = [];
  for (const word of words) {
    const value = staticValue(word);
    if (value === null) return null;
    values.push(value);
  }
  return values.length > 0 ? values : null;
}

/**
 * A word's value when it holds no expansion, and no blank, `~`, `$` or backtick: such a value is the same word
 * wherever it is put in, with nothing split, expanded or read as another variable.
 */
function staticValue(word: Word): StaticValue | null {
  const parts = word.parts ?? [];
  let globbed = false;
  for (const part of parts) {
    if (part.type === "Glob" && part.kind !== "bracket") globbed = true;
    else if (
      !STATIC_PARTS.has(part.type) &&
      !(
        part.type === "DoubleQuoted" &&
        part.parts.every((child) => child.type === "Literal")
      )
    )
      return null;
  }
  return /[\s~$`]/.test(word.value) ? null : { value: word.value, globbed };
}

function isStatic(word: Word): boolean {
  return staticValue(word) !== null && !/[*?[]/.test(word.value);
}
