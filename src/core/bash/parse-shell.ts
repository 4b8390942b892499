import { forEachChild, parse } from "unbash";
import type {
  Assignment as UnbashAssignment,
  Command,
  DoubleQuotedChild,
  Redirection,
  SyntaxNode,
  Word,
  WordPart,
} from "unbash";
import { expandBraces } from "./expand-braces.ts";
import { MAX_NESTING } from "./limits.ts";
import { NO_DEADLINE, type CheckTime } from "../time/deadline.ts";
import type {
  Assignment,
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
}

interface Scope {
  /** Positions of nodes index this text: escaped backticks carry their own decoded source. */
  source: string;
  depth: number;
}

/**
 * Parses Bash with unbash into simple commands, including those inside compound commands, function bodies and
 * command or process substitutions (in words, assignments, redirect targets and unquoted here-documents).
 */
export function parseShell(
  source: string,
  checkTime: CheckTime = NO_DEADLINE,
): ShellParse {
  const walk: Walk = {
    commands: [],
    error: null,
    upstream: new WeakMap(),
    checkTime,
  };
  visit(parse(source), { source, depth: 0 }, walk);
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
      const command = toCommand(node, scope);
      const upstream = walk.upstream.get(node);
      if (upstream) command.pipedFrom = toCommand(upstream, scope).words;
      walk.commands.push(command);
      break;
    }
    case "Pipeline":
      node.commands.forEach((command, i) => {
        const before = node.commands[i - 1];
        if (before?.type === "Command") walk.upstream.set(command, before);
      });
      break;
    case "Redirected":
      walk.commands.push({
        env: [],
        words: [],
        redirects: node.redirects.map(toRedirect),
        text: scope.source.slice(node.pos, node.end),
        depth: scope.depth,
      });
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

function toCommand(node: Command, scope: Scope): ShellCommand {
  const env: Assignment[] = [];
  for (const item of node.prefix)
    if (item.type === "Assignment")
      env.push({ name: item.name, value: assignmentValue(item) });
  const at = (item: { pos: number; end: number }) =>
    [item.pos - node.pos, item.end - node.pos] as const;
  const words: ShellWord[] = node.name
    ? expandWord(node.name).map((w) => ({ ...w, at: at(node.name!) }))
    : [];
  for (const arg of node.args)
    if (arg.type === "Word")
      words.push(...expandWord(arg).map((w) => ({ ...w, at: at(arg) })));
    else words.push({ ...assignmentWord(arg), at: at(arg) });
  return {
    env,
    words,
    redirects: node.redirects.map(toRedirect),
    text: scope.source.slice(node.pos, node.end),
    depth: scope.depth,
  };
}

function toRedirect(redirect: Redirection): ShellRedirect {
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
    target: redirect.target ? toWord(redirect.target) : null,
    hereDoc: null,
  };
}

function assignmentValue(item: UnbashAssignment): ShellWord {
  if (item.value.type === "Word") return toWord(item.value);
  const elements = item.value.elements.map(toWord);
  return {
    value: `(${elements.map((e) => e.value).join(" ")})`,
    dynamic: elements.some((e) => e.dynamic),
  };
}

function assignmentWord(item: UnbashAssignment): ShellWord {
  const value = assignmentValue(item);
  const index = item.index ? `[${item.index.value}]` : "";
  const op = item.append ? "+=" : "=";
  return {
    value: `${item.name}${index}${op}${value.value}`,
    dynamic: value.dynamic,
  };
}

function toWord(word: Word): ShellWord {
  return { value: word.value, dynamic: isDynamic(word.parts ?? []) };
}

/** A word with brace expansions becomes the words Bash would make of it. */
function expandWord(word: Word): ShellWord[] {
  const parts = word.parts ?? [];
  if (!parts.some((p) => p.type === "BraceExpansion")) return [toWord(word)];
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

function partValue(part: WordPart | DoubleQuotedChild): string {
  switch (part.type) {
    case "Literal":
    case "SingleQuoted":
    case "AnsiCQuoted":
      return part.value;
    case "DoubleQuoted":
    case "LocaleString":
      return part.parts.map(partValue).join("");
    default:
      return part.text;
  }
}

const STATIC_PARTS = new Set(["Literal", "SingleQuoted", "AnsiCQuoted"]);

function isDynamic(parts: readonly (WordPart | DoubleQuotedChild)[]): boolean {
  return parts.some((part) => {
    if (part.type === "DoubleQuoted" || part.type === "LocaleString")
      return isDynamic(part.parts);
    return !STATIC_PARTS.has(part.type);
  });
}
