import { classifyWrites } from "./classify-writes.ts";
import { findInlineCode } from "./inline-code.ts";
import { MAX_COMMAND_LENGTH, MAX_NESTING } from "./limits.ts";
import { nestedScripts } from "./nested-scripts.ts";
import { parseShell } from "./parse-shell.ts";
import type {
  Assignment,
  ShellParser,
  ShellRedirect,
  ShellWord,
} from "./shell-syntax.ts";
import type {
  BashAnalysis,
  BashWrite,
  InlineCode,
  Redirect,
  SimpleCommand,
} from "./types.ts";
import { unwrapPrefix } from "./unwrap-prefix.ts";

const TOO_DEEP = `The command nests shell code deeper than ${MAX_NESTING} levels`;

interface Found {
  commands: SimpleCommand[];
  writes: BashWrite[];
  inlineCode: InlineCode[];
}

interface Node {
  words: ShellWord[];
  env: Assignment[];
  redirects: ShellRedirect[];
  text: string;
  depth: number;
  placeholder: string | null;
  appendsArgs: boolean;
}

/**
 * Finds every simple command a Bash line would run (across lists, pipelines, subshells, compound commands,
 * functions, `$(...)`, backticks, process substitution, `bash -c`, `eval`, here-documents fed to a shell and
 * prefix commands like `sudo`, `env`, `timeout`, `xargs`), the files they would change and the inline code they
 * hand to interpreters. Never throws: a line it cannot parse, or that is over 1 MB or nested deeper than 8
 * levels, comes back with `error` set and nothing else.
 */
export function analyzeBash(command: string): BashAnalysis {
  return analyzeBashWith(parseShell, command);
}

/** {@link analyzeBash} with another shell parser, so parsers can be compared on the same analysis. */
export function analyzeBashWith(
  parser: ShellParser,
  command: string,
): BashAnalysis {
  if (command.length > MAX_COMMAND_LENGTH)
    return failed(
      `The command is ${Math.ceil(command.length / 1024)} KB long; commands over ${MAX_COMMAND_LENGTH / 1024} KB are not analysed`,
    );
  const found: Found = { commands: [], writes: [], inlineCode: [] };
  try {
    const error = analyzeSource(parser, command, 0, found);
    if (error !== null) return failed(error);
  } catch (cause) {
    return failed(
      `The shell parser failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
  return { ...found, writes: unique(found.writes), error: null };
}

function failed(error: string): BashAnalysis {
  return { commands: [], writes: [], inlineCode: [], error };
}

function analyzeSource(
  parser: ShellParser,
  source: string,
  depth: number,
  found: Found,
): string | null {
  if (depth > MAX_NESTING) return TOO_DEEP;
  const parsed = parser(source);
  if (!parsed.ok)
    return depth === 0 ? parsed.error : `In nested shell code: ${parsed.error}`;
  for (const command of parsed.commands) {
    const error = visit(
      parser,
      {
        ...command,
        depth: depth + command.depth,
        placeholder: null,
        appendsArgs: false,
      },
      found,
    );
    if (error !== null) return error;
  }
  return null;
}

function visit(parser: ShellParser, node: Node, found: Found): string | null {
  if (node.depth > MAX_NESTING) return TOO_DEEP;
  const argv = node.words.map((w) => w.value);
  found.commands.push(toSimpleCommand(node, argv));
  for (const target of classifyWrites(argv, node.redirects))
    if (node.placeholder === null || !target.path.includes(node.placeholder))
      found.writes.push({ ...target, command: node.text });
  for (const code of findInlineCode(argv, node.redirects))
    found.inlineCode.push({ ...code, command: node.text });
  for (const script of nestedScripts(argv, node.redirects)) {
    const error = analyzeSource(parser, script, node.depth + 1, found);
    if (error !== null) return error;
  }
  for (const inner of unwrapPrefix(node.words)) {
    const placeholder = inner.placeholder ?? node.placeholder;
    const words = inner.words.map((w) =>
      placeholder !== null && w.value.includes(placeholder)
        ? { ...w, dynamic: true }
        : w,
    );
    const error = visit(
      parser,
      {
        ...node,
        words,
        env: inner.env,
        placeholder,
        appendsArgs: inner.appendsArgs || node.appendsArgs,
        depth: node.depth + 1,
      },
      found,
    );
    if (error !== null) return error;
  }
  return null;
}

function toSimpleCommand(node: Node, argv: string[]): SimpleCommand {
  const redirects: Redirect[] = node.redirects.map((r) => ({
    op: r.op,
    target: r.target?.value ?? r.hereDoc?.delimiter ?? "",
    fd: r.fd,
  }));
  return {
    argv,
    env: Object.fromEntries(node.env.map((a) => [a.name, a.value.value])),
    redirects,
    dynamic:
      node.appendsArgs ||
      node.words.some((w) => w.dynamic) ||
      node.redirects.some((r) => r.target?.dynamic === true),
    text: node.text,
    depth: node.depth,
  };
}

function unique(writes: BashWrite[]): BashWrite[] {
  const seen = new Set<string>();
  return writes.filter((w) => {
    const key = `${w.path}\0${w.op}\0${w.command}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
