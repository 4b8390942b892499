/**
 * The parser-neutral view of a shell line that the analysis works on. A parser adapter (`parse-shell.ts` for
 * unbash, others in `bench/shell-parsers.ts`) turns its AST into this, so the analysis does not depend on one parser.
 */

/** One word after quote removal; expansions it cannot resolve keep their source text. */
export interface ShellWord {
  value: string;
  /** Holds a parameter, command or arithmetic expansion, a glob or a process substitution. */
  dynamic: boolean;
  /** Where the word sits in its command's `text`, as [start, end), when the parser knows. */
  at?: readonly [number, number];
}

export interface ShellRedirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `>&`, `<&`, `<<`, `<<-`, `<<<`. */
  op: string;
  fd: number | null;
  /** The file, fd or here-string word; null for here-documents. */
  target: ShellWord | null;
  hereDoc: HereDoc | null;
}

export interface HereDoc {
  delimiter: string;
  body: string;
  /** A quoted delimiter (`<<'EOF'`) turns off expansion in the body. */
  quoted: boolean;
}

export interface Assignment {
  name: string;
  value: ShellWord;
}

/** A simple command, or the redirections of a compound command (`{ ...; } > out`) with no words. */
export interface ShellCommand {
  env: Assignment[];
  words: ShellWord[];
  redirects: ShellRedirect[];
  text: string;
  /** Command-substitution nesting inside the parsed source: 0 for the source's own commands. */
  depth: number;
  /** The words of the simple command piped into this one (`echo CODE | bash`), when the parser knows. */
  pipedFrom?: ShellWord[];
}

export type ShellParse =
  { ok: true; commands: ShellCommand[] } | { ok: false; error: string };

export interface ParseOptions {
  /**
   * Fill in the variables whose value the source itself shows (`d=/tmp/x; rm -rf $d`). Only for the line the agent
   * runs: code it hands on (`bash -c`, `eval`, a script file) may run where other bindings are in force.
   */
  knownVariables?: boolean;
  /**
   * With `knownVariables`: variables the shell running the line inherits, each with every value it may have ("" for
   * unset), filled in where the line does not bind them itself (`rm -rf "$TMPDIR/build"`).
   */
  inherited?: Readonly<Record<string, readonly string[]>>;
}

/** Parses a shell source into its simple commands; throws only when `checkTime` says the time is up. */
export type ShellParser = (
  source: string,
  checkTime?: () => void,
  options?: ParseOptions,
) => ShellParse;
