import { forEachChild, parse } from "unbash";
import type {
  Assignment as UnbashAssignment,
  Command,
  DoubleQuotedChild,
  Redirected,
  Redirection,
  SyntaxNode,
  Word,
  WordPart,
} from "unbash";
import {
  bindingChoices,
  NO_CHOICE,
  type BindingChoice,
} from "./binding-choices.ts";
import { expandBraces } from "./expand-braces.ts";
import { FRESH_TEMP, isPlacedFreshTemp } from "./fresh-temp-call.ts";
import { MAX_NESTING } from "./limits.ts";
import { NO_DEADLINE, type CheckTime } from "../time/deadline.ts";
import { findLineBindings, type LineBindings } from "./shell-bindings.ts";
import type {
  Assignment,
  ParseOptions,
  ShellCommand,
  ShellParse,
  ShellRedirect,
  ShellWord,
} from "./shell-syntax.ts";

interface Walk {
  commands: ShellCommand[];
  error: string | null;
  /** For a command inside a pipeline: the command before it, whose output it reads. */
  upstream: WeakMap<SyntaxNode, Command>;
  checkTime: CheckTime;
  bindings: LineBindings;
}

interface Scope {
  /** Positions of nodes index this text: escaped backticks carry their own decoded source. */
  source: string;
  depth: number;
}

/**
 * Parses Bash with unbash into simple commands, including those inside compound commands, function bodies and
 * command or process substitutions (in words, assignments, redirect targets and unquoted here-documents). With
 * `knownVariables`, a variable whose value the line itself shows is filled in (`shell-bindings.ts`), and a command
 * using a loop variable comes back once per value.
 */
export function parseShell(
  source: string,
  checkTime: CheckTime = NO_DEADLINE,
  options: ParseOptions = {},
): ShellParse {
  const script = parse(source);
  const walk: Walk = {
    commands: [],
    error: null,
    upstream: new WeakMap(),
    checkTime,
    bindings:
      options.knownVariables && !script.errors?.length
        ? findLineBindings(script, source, options.inherited)
        : new Map(),
  };
  visit(script, { source, depth: 0 }, walk);
  return walk.error === null
    ? { ok: true, commands: walk.commands }
    : { ok: false, error: walk.error };
}

function visit(node: SyntaxNode, scope: Scope, walk: Walk): void {
  if (walk.error !== null) return;
  let inner = scope;
  switch (node.type) {
    case "Script": {
      inner = { ...scope, source: node.source ?? scope.source };
      const first = node.errors?.[0];
      if (first) {
        walk.error = describeError(first.message, first.pos, inner.source);
        return;
      }
      break;
    }
    case "Command": {
      walk.checkTime();
      const upstream = walk.upstream.get(node);
      const pipedFrom = upstream && pipedWords(upstream, scope, walk);
      for (const choice of bindingChoices(node, walk.bindings)) {
        const command = toCommand(node, scope, choice);
        if (pipedFrom) command.pipedFrom = pipedFrom;
        walk.commands.push(command);
      }
      break;
    }
    case "Pipeline":
      node.commands.forEach((command, i) => {
        const before = node.commands[i - 1];
        if (before?.type === "Command") walk.upstream.set(command, before);
      });
      break;
    case "Redirected":
      for (const choice of bindingChoices(node, walk.bindings))
        walk.commands.push(toRedirected(node, scope, choice));
      break;
    case "CommandExpansion":
    case "ProcessSubstitution":
    case "ArithmeticCommandExpansion":
      inner = { ...scope, depth: scope.depth + 1 };
      if (inner.depth > MAX_NESTING) {
        walk.error = `Command substitutions are nested deeper than ${MAX_NESTING} levels`;
        return;
      }
      break;
  }
  forEachChild(node, (child) => visit(child, inner, walk));
}

function describeError(message: string, pos: number, source: string): string {
  const before = source.slice(0, pos);
  const line = before.split("\n").length;
  const column = pos - before.lastIndexOf("\n");
  return `${message} (line ${line}, column ${column})`;
}

/** The words of the command piped into another: as written when its variables could take several values. */
function pipedWords(upstream: Command, scope: Scope, walk: Walk): ShellWord[] {
  const choices = bindingChoices(upstream, walk.bindings);
  return toCommand(
    upstream,
    scope,
    choices.length === 1 ? choices[0] : NO_CHOICE,
  ).words;
}

function toRedirected(
  node: Redirected,
  scope: Scope,
  choice: BindingChoice,
): ShellCommand {
  return {
    env: [],
    words: [],
    redirects: node.redirects.map((r) => toRedirect(r, choice)),
    text: scope.source.slice(node.pos, node.end),
    depth: scope.depth,
  };
}

function toCommand(
  node: Command,
  scope: Scope,
  choice: BindingChoice = NO_CHOICE,
): ShellCommand {
  const env: Assignment[] = [];
  for (const item of node.prefix)
    if (item.type === "Assignment")
      env.push({ name: item.name, value: assignmentValue(item, choice) });
  const at = (item: { pos: number; end: number }) =>
    [item.pos - node.pos, item.end - node.pos] as const;
  const words: ShellWord[] = node.name
    ? expandWord(node.name, choice).map((w) => ({ ...w, at: at(node.name!) }))
    : [];
  for (const arg of node.args)
    if (arg.type === "Word") {
      if (!vanishes(arg, choice))
        words.push(
          ...expandWord(arg, choice).map((w) => ({ ...w, at: at(arg) })),
        );
    } else words.push({ ...assignmentWord(arg, choice), at: at(arg) });
  return {
    env,
    words,
    redirects: node.redirects.map((r) => toRedirect(r, choice)),
    text: scope.source.slice(node.pos, node.end),
    depth: scope.depth,
  };
}

/** An unquoted `$d` that is empty leaves no word behind. */
function vanishes(word: Word, choice: BindingChoice): boolean {
  const parts = word.parts ?? [];
  return parts.length > 0 && parts.every((p) => choice.get(p) === "");
}

function toRedirect(
  redirect: Redirection,
  choice: BindingChoice = NO_CHOICE,
): ShellRedirect {
  const fd =
    redirect.descriptor?.type === "FileDescriptor"
      ? redirect.descriptor.value
      : null;
  if (redirect.type === "HereDoc")
    return {
      op: redirect.operator,
      fd,
      target: null,
      hereDoc: {
        delimiter: redirect.delimiter?.value ?? "",
        body: redirect.body.text,
        quoted: redirect.delimiter?.quoted ?? false,
      },
    };
  return {
    op: redirect.operator,
    fd,
    target: redirect.target ? toWord(redirect.target, choice) : null,
    hereDoc: null,
  };
}

function assignmentValue(
  item: UnbashAssignment,
  choice: BindingChoice,
): ShellWord {
  if (item.value.type === "Word") return toWord(item.value, choice);
  const elements = item.value.elements.map((e) => toWord(e));
  return {
    value: `(${elements.map((e) => e.value).join(" ")})`,
    dynamic: elements.some((e) => e.dynamic),
  };
}

function assignmentWord(
  item: UnbashAssignment,
  choice: BindingChoice,
): ShellWord {
  const value = assignmentValue(item, choice);
  const index = item.index ? `[${item.index.value}]` : "";
  const op = item.append ? "+=" : "=";
  return {
    value: `${item.name}${index}${op}${value.value}`,
    dynamic: value.dynamic,
  };
}

function toWord(word: Word, choice: BindingChoice = NO_CHOICE): ShellWord {
  const parts = word.parts ?? [];
  if (choice.size === 0 || !parts.some((p) => fillsIn(p, choice)))
    return { value: word.value, dynamic: isDynamic(parts) };
  const filled = filledIn(parts, choice);
  if (!filled.value.includes(FRESH_TEMP) || isPlacedFreshTemp(filled.value))
    return filled;
  // A fresh temp path means nothing after `..` or inside another word: there `$d` stays unknown.
  return filledIn(
    parts,
    new Map([...choice].filter(([, value]) => value !== FRESH_TEMP)),
  );
}

function fillsIn(
  part: WordPart | DoubleQuotedChild,
  choice: BindingChoice,
): boolean {
  return part.type === "DoubleQuoted" || part.type === "LocaleString"
    ? part.parts.some((p) => fillsIn(p, choice))
    : choice.has(part);
}

function filledIn(
  parts: readonly WordPart[],
  choice: BindingChoice,
): ShellWord {
  return {
    value: parts.map((p) => partValue(p, choice)).join(""),
    dynamic: isDynamic(parts, choice),
  };
}

/** A word with brace expansions becomes the words Bash would make of it. */
function expandWord(word: Word, choice: BindingChoice): ShellWord[] {
  const parts = word.parts ?? [];
  // Variables inside a brace word stay as written: bash expands braces first, over the variables' source text.
  if (!parts.some((p) => p.type === "BraceExpansion"))
    return [toWord(word, choice)];
  let prefixes = [""];
  for (const part of parts) {
    const options =
      part.type === "BraceExpansion"
        ? expandBraces(part.text)
        : [partValue(part)];
    if (options === null || prefixes.length * options.length > 64)
      return [{ value: word.value, dynamic: true }];
    prefixes = prefixes.flatMap((p) => options.map((o) => p + o));
  }
  const dynamic = isDynamic(parts.filter((p) => p.type !== "BraceExpansion"));
  return prefixes.map((value) => ({ value, dynamic }));
}

function partValue(
  part: WordPart | DoubleQuotedChild,
  choice: BindingChoice = NO_CHOICE,
): string {
  const filled = choice.get(part);
  if (filled !== undefined) return filled;
  switch (part.type) {
    case "Literal":
    case "SingleQuoted":
    case "AnsiCQuoted":
      return part.value;
    case "DoubleQuoted":
    case "LocaleString":
      return part.parts.map((p) => partValue(p, choice)).join("");
    default:
      return part.text;
  }
}

const STATIC_PARTS = new Set(["Literal", "SingleQuoted", "AnsiCQuoted"]);

function isDynamic(
  parts: readonly (WordPart | DoubleQuotedChild)[],
  choice: BindingChoice = NO_CHOICE,
): boolean {
  return parts.some((part) => {
    if (part.type === "DoubleQuoted" || part.type === "LocaleString")
      return isDynamic(part.parts, choice);
    const filled = choice.get(part);
    // A filled-in glob, or a fresh temp path, is still known only when the command runs.
    if (filled !== undefined) return /[$`*?[]/.test(filled);
    return !STATIC_PARTS.has(part.type);
  });
}
