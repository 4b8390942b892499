/**
 * `E_USAGE` wrong arguments (exit 2); `E_NOT_FOUND` a missing file or id; `E_WRITE` a refused or failed write;
 * `E_CONFIG` a document or setting that must be fixed first; `E_DENIED` a command this caller may not run (a record
 * only the reviewer, the critic or a person at a terminal may make); `E_GIT` a git command that failed; `E_GITHUB` a
 * GitHub request that failed; `E_TEMPLATE` a template that did not render; `E_ARCHIVE` an archive step that stopped;
 * `E_TOO_LARGE` a document larger than playbook reads; `E_INTERRUPTED` the user stopped the command (Ctrl-C, SIGTERM):
 * exit 130 or 143, as a shell reports a signal.
 * Anything thrown that is not a `PlaybookError` is a bug, and the CLI says so.
 */
export type ErrorCode =
  | "E_USAGE"
  | "E_NOT_FOUND"
  | "E_WRITE"
  | "E_CONFIG"
  | "E_DENIED"
  | "E_GIT"
  | "E_GITHUB"
  | "E_TEMPLATE"
  | "E_ARCHIVE"
  | "E_TOO_LARGE"
  | "E_INTERRUPTED";

/**
 * Where in a file the problem is, so a terminal prints `file:line:column` and `--json` carries it apart from the
 * message. `file` is relative to the project root when it is inside it (a template's is its path inside
 * playbook-kit's package); `line` and `column` are 1-based.
 */
export interface ErrorLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface PlaybookErrorOptions {
  /** The next step: short, and says what to do. Required so no failure leaves the user without one. */
  hint: string;
  location?: ErrorLocation;
  cause?: unknown;
}

/** An operational failure the user can act on: one line of message plus a hint that says what to do next. */
export class PlaybookError extends Error {
  readonly code: ErrorCode;
  readonly hint: string;
  readonly location: ErrorLocation | undefined;
  constructor(code: ErrorCode, message: string, options: PlaybookErrorOptions) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
    this.location = options.location;
  }
}

/** Ctrl-C (SIGINT) or SIGTERM stopped the command after it ended what it had started; the message says what is left. */
export class InterruptedError extends PlaybookError {
  readonly signal: "SIGINT" | "SIGTERM";
  constructor(signal: "SIGINT" | "SIGTERM", message: string) {
    super("E_INTERRUPTED", message, { hint: "" });
    this.signal = signal;
  }
}

/** The location of `file`, at `point` (a diagnostic, a node's span start) when there is one. */
export function locationAt(
  file: string,
  point?: { line: number; column: number },
): ErrorLocation {
  return point ? { file, line: point.line, column: point.column } : { file };
}
