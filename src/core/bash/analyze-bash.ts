import { classifyWrites } from "./classify-writes.ts";
import { findInlineCode, interpretedScript } from "./inline-code.ts";
import { MAX_COMMAND_LENGTH, MAX_NESTING } from "./limits.ts";
import { justRun } from "./just-run.ts";
import { makeRun } from "./make-run.ts";
import { nestedScripts } from "./nested-scripts.ts";
import { packageScriptRun } from "./package-scripts.ts";
import { parseShell } from "./parse-shell.ts";
import type {
  Assignment,
  ParseOptions,
  ShellParser,
  ShellRedirect,
  ShellWord,
} from "./shell-syntax.ts";
import type {
  BashAnalysis,
  BashWrite,
  InlineCode,
  Redirect,
  ScriptFile,
  SimpleCommand,
} from "./types.ts";
import {
  fillIn,
  ownText,
  runTimeArgvs,
  type RunTimeNames,
} from "./run-time-names.ts";
import { unwrapPrefix } from "./unwrap-prefix.ts";
import { isOutOfTime, NO_DEADLINE, type CheckTime } from "../time/deadline.ts";
import { ranScript, writtenScripts } from "./written-scripts.ts";

const TOO_DEEP = `The command nests shell code deeper than ${MAX_NESTING} levels`;

interface Found {
  commands: SimpleCommand[];
  writes: BashWrite[];
  inlineCode: InlineCode[];
  /** Script files the line writes from a here-document, by path, until a later command runs them. */
  scripts: Map<string, string>;
  scriptFiles: ScriptFile[];
  checkTime: CheckTime;
  options: ParseOptions;
}

interface Node extends RunTimeNames {
  words: ShellWord[];
  env: Assignment[];
  redirects: ShellRedirect[];
  text: string;
  depth: number;
  pipedFrom?: ShellWord[];
}

/**
 * Finds every simple command a Bash line would run (across lists, pipelines, subshells, compound commands,
 * functions, `$(...)`, backticks, process substitution, `bash -c`, `eval`, here-documents fed to a shell and
 * prefix commands like `sudo`, `env`, `timeout`, `xargs`, `busybox`, and scripts the line writes from a
 * here-document and then runs), the files they would change and the inline code they hand to interpreters. Names
 * found at run time appear as `ROOT/*` for `find ROOT -exec ... {}`, as `$XARGS` for `xargs`, and as `ROOT/$XARGS`
 * for `find ROOT... -print0 | xargs -0`. With `knownVariables`, variables the line itself sets are filled in where
 * their value is known (see `shell-bindings.ts`), `$(mktemp)` paths as `FRESH_TEMP`. Never throws: a line it cannot
 * parse, that holds a NUL, or that is over 1 MB or nested deeper than 8 levels, comes back with `error` set and
 * nothing else. Throws only `OutOfTime`, when `checkTime` says so.
 */
export function analyzeBash(
  command: string,
  checkTime: CheckTime = NO_DEADLINE,
  options: ParseOptions = {},
): BashAnalysis {
  return analyzeBashWith(parseShell, command, checkTime, options);
}

/** {@link analyzeBash} with another shell parser, so parsers can be compared on the same analysis. */
export function analyzeBashWith(
  parser: ShellParser,
  command: string,
  checkTime: CheckTime = NO_DEADLINE,
  options: ParseOptions = {},
): BashAnalysis {
  if (command.length > MAX_COMMAND_LENGTH)
    return failed(
      `The command is ${Math.ceil(command.length / 1024)} KB long; commands over ${MAX_COMMAND_LENGTH / 1024} KB are not analysed`,
    );
  // No shell can be handed a NUL, and the fresh temp marker holds one: a line must not spell it.
  if (command.includes("\0"))
    return failed("The command holds a NUL character");
  const found: Found = {
    commands: [],
    writes: [],
    inlineCode: [],
    scripts: new Map(),
    scriptFiles: [],
    checkTime,
    options,
  };
  try {
    const error = analyzeSource(parser, command, 0, found);
    if (error !== null) return failed(error);
  } catch (cause) {
    if (isOutOfTime(cause)) throw cause;
    return failed(
      `The shell parser failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
  return {
    commands: found.commands,
    writes: unique(found.writes),
    inlineCode: found.inlineCode,
    scriptFiles: found.scriptFiles,
    error: null,
  };
}

function failed(error: string): BashAnalysis {
  return { commands: [], writes: [], inlineCode: [], scriptFiles: [], error };
}

function analyzeSource(
  parser: ShellParser,
  source: string,
  depth: number,
  found: Found,
): string | null {
  if (depth > MAX_NESTING) return TOO_DEEP;
  found.checkTime();
  // Only the line itself: code it hands on runs where its bindings may not hold.
  const parsed = parser(
    source,
    found.checkTime,
    depth === 0 ? found.options : {},
  );
  if (!parsed.ok)
    return depth === 0 ? parsed.error : `In nested shell code: ${parsed.error}`;
  for (const command of parsed.commands) {
    const error = visit(
      parser,
      {
        ...command,
        depth: depth + command.depth,
        placeholder: null,
        appended: [],
        standsFor: [],
      },
      found,
    );
    if (error !== null) return error;
  }
  return null;
}

function visit(parser: ShellParser, node: Node, found: Found): string | null {
  if (node.depth > MAX_NESTING) return TOO_DEEP;
  found.checkTime();
  const argv = node.words.map((w) => w.value);
  found.commands.push(toSimpleCommand(node, argv));
  for (const runArgv of runTimeArgvs(node, argv))
    for (const target of classifyWrites(runArgv, node.redirects))
      found.writes.push({ ...target, command: node.text });
  for (const code of findInlineCode(argv, node.redirects, node.pipedFrom))
    found.inlineCode.push({ ...code, command: node.text });
  for (const script of writtenScripts(argv, node.redirects))
    found.scripts.set(script.path, script.body);
  const scripts = nestedScripts(argv, node.redirects, node.pipedFrom);
  const run = ranScript(argv);
  const body = run === null ? undefined : found.scripts.get(run);
  if (run !== null && body !== undefined) {
    // Analysed once: a script that runs itself would otherwise nest until the depth limit.
    found.scripts.delete(run);
    scripts.push(body);
  } else if (run !== null)
    found.scriptFiles.push({
      path: run,
      interpreter: null,
      command: node.text,
    });
  const program = interpretedScript(argv);
  if (program !== null)
    found.scriptFiles.push({ ...program, command: node.text });
  const make = makeRun(argv);
  if (make !== null) {
    const folder = make.dir === null ? "" : `${make.dir.replace(/\/+$/, "")}/`;
    found.scriptFiles.push({
      path: `${folder}${make.file ?? "Makefile"}`,
      interpreter: null,
      command: node.text,
      makeTargets: make.targets,
      makeDefaultFile: make.file === null,
      ...(make.dir === null ? {} : { makeDir: make.dir }),
    });
  }
  const just = justRun(argv);
  if (just !== null)
    found.scriptFiles.push({
      path: `${just.dir === null ? "" : `${just.dir.replace(/\/+$/, "")}/`}${just.file ?? "justfile"}`,
      interpreter: null,
      command: node.text,
      justWords: just.words,
      justDefaultFile: just.file === null,
    });
  const packageRun = packageScriptRun(argv);
  if (packageRun !== null)
    found.scriptFiles.push({
      path:
        packageRun.dir === null
          ? "package.json"
          : `${packageRun.dir.replace(/\/+$/, "")}/package.json`,
      interpreter: null,
      command: node.text,
      packageScripts: packageRun.names,
    });
  for (const script of scripts) {
    const error = analyzeSource(parser, script, node.depth + 1, found);
    if (error !== null) return error;
  }
  for (const inner of unwrapPrefix(node.words, node.pipedFrom)) {
    const own = inner.placeholder !== null;
    const placeholder = own ? inner.placeholder : node.placeholder;
    const words = inner.words.map((w) =>
      placeholder !== null && w.value.includes(placeholder)
        ? { ...w, dynamic: true }
        : w,
    );
    const error = visit(
      parser,
      {
        ...node,
        ...(inner.ownText ? ownText(node.text, words) : { words }),
        ...(inner.ownText ? { redirects: [] } : {}),
        env: inner.env,
        placeholder,
        standsFor: own ? fillIn(node, inner.standsFor) : node.standsFor,
        appended: [...new Set([...node.appended, ...inner.appended])],
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
      node.appended.length > 0 ||
      node.words.some((w) => w.dynamic) ||
      node.redirects.some((r) => r.target?.dynamic === true),
    text: node.text,
    depth: node.depth,
  };
}

function unique(writes: BashWrite[]): BashWrite[] {
  // Keyed per command rather than by one string holding its text: a long command with many writes would otherwise
  // build and hash its whole text once per write.
  const seen = new Map<string, Set<string>>();
  return writes.filter((w) => {
    const key = `${w.path}\0${w.op}`;
    const ofCommand = seen.get(w.command) ?? new Set<string>();
    seen.set(w.command, ofCommand);
    if (ofCommand.has(key)) return false;
    ofCommand.add(key);
    return true;
  });
}
