import type { TrustedArgs } from "../guards/trusted-args-result.ts";
/** One simple command found anywhere in a Bash command line (after `;`, `&&`, pipes, `$(...)`, `bash -c`, ...). */
export interface SimpleCommand {
  /** The words after env prefixes, unquoted; a word with an expansion the parser cannot resolve keeps its source text. */
  argv: string[];
  /** `NAME=value` prefixes. */
  env: Record<string, string>;
  /** Output and input redirections of this command. */
  redirects: Redirect[];
  /** Whether any word of argv or a redirect target holds an unresolvable expansion (`$VAR`, `$(...)`, globs). */
  dynamic: boolean;
  /** Source text of the command, for messages. */
  text: string;
  /** How deep it is nested: 0 at top level, 1 inside `bash -c "..."`/`eval`/`$(...)`, and so on. */
  depth: number;
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<<`, `<<<`, `<>`, ... as written. */
  op: string;
  /** The target word (file name), unquoted; for here-docs the delimiter. */
  target: string;
  /** File descriptor when written (`2>`), else null. */
  fd: number | null;
}

/** What a command would do to a path, as far as the command line shows. */
export type WriteOp =
  | "write" // > file, tee file, cp src file, dd of=file, sed -i file, ...
  | "append" // >> file, tee -a file
  | "delete" // rm, unlink, truncate -s 0 (treated as a write), shred
  | "move"; // mv src dst: the source disappears (the destination is a "write")

export interface BashWrite {
  /** The path exactly as the command names it (unresolved: relative, `..`, `~` kept). */
  path: string;
  op: WriteOp;
  /** The simple command's text, for messages. */
  command: string;
}

/** Code an interpreter runs from the command line (`python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, ...). */
export interface InlineCode {
  interpreter: string;
  code: string;
  command: string;
}

/** A script file the line runs (`bash x.sh`, `./x.sh`, `source x`, `python fix.py`): its effect is in the file. */
export interface ScriptFile {
  /** As the command names it. */
  path: string;
  /** The interpreter that runs it (`python3`, `node`), or null for a shell or whatever its `#!` line names. */
  interpreter: string | null;
  command: string;
  /** For a package.json: the scripts the command runs from it (`npm run X`), read there and parsed as shell. */
  packageScripts?: string[];
  /** For a Makefile: the targets `make` builds from it (none: its default goal). */
  makeTargets?: string[];
  /** Whether make picks the file itself (GNUmakefile, makefile, Makefile in the path's folder). */
  makeDefaultFile?: boolean;
  /** `make -C DIR`: the recipes run in DIR. */
  makeDir?: string;
  /** For a justfile: the words after `just` (recipes and their arguments; none: the first recipe). */
  justWords?: string[];
  /** Whether just looks the file up itself (`justfile` in any case, here or in a parent folder). */
  justDefaultFile?: boolean;
}

export interface BashAnalysis {
  commands: SimpleCommand[];
  writes: BashWrite[];
  /** Guards treat inline code that mentions a guarded path as a write to it: its effect cannot be known. */
  inlineCode: InlineCode[];
  /** Script files the line runs; the runtime reads them and analyses what they do. */
  scriptFiles: ScriptFile[];
  /** Set when the line could not be parsed: callers treat the call as unknown, never as harmless. */
  error: string | null;
  /**
   * For each of `commands` that runs the playbook CLI: its arguments checked against the command's grammar
   * (core/guards/trusted-args.ts), read where the call is known (the project, the shell's folder). Absent when the
   * analysis was made without them: then no proof command is run for the agent.
   */
  playbookCalls?: ReadonlyMap<SimpleCommand, TrustedArgs>;
}
