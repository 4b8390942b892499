import {
  InterruptedError,
  PlaybookError,
  type ErrorLocation,
} from "../../core/errors.ts";
import { stripColors, type Colors } from "./colors.ts";
import { toTerminalText } from "./terminal-text.ts";

/** What the CLI reports when a command fails: the same facts for stderr and for `--json` on stdout. */
export interface CliFailure {
  /** A `PlaybookError` code, or `E_INTERNAL` for anything else: a bug. */
  code: string;
  message: string;
  hint: string;
  /** Where in a file the problem is, when it is about one. */
  location: ErrorLocation | null;
  /** 2 for a usage error, 130 or 143 for Ctrl-C or SIGTERM (128 + the signal, as a shell reports it), else 1. */
  exitCode: 1 | 2 | 130 | 143;
  /** The stack of an internal error, for the bug report. */
  stack: string | null;
}

declare const __PLAYBOOK_VERSION__: string | undefined;
declare const __PLAYBOOK_BUGS__: string | null | undefined;

/**
 * Where a crash should be reported: package.json's `bugs` URL, put in at build time, so the one field serves both
 * `npm bugs playbook-kit` and this message; without one, `npm bugs` still finds the package's page.
 */
export function bugHint(version: string, bugsUrl: string | null): string {
  return bugsUrl
    ? `This is a bug in playbook ${version}. Please report it at ${bugsUrl}, with the text above.`
    : `This is a bug in playbook ${version}. Please report it with the text above: \`npm bugs playbook-kit\` opens where.`;
}

const BUG_HINT = bugHint(
  typeof __PLAYBOOK_VERSION__ === "string"
    ? __PLAYBOOK_VERSION__
    : "0.0.0-source",
  typeof __PLAYBOOK_BUGS__ === "string" ? __PLAYBOOK_BUGS__ : null,
);

/** Classifies a thrown value: ours and citty's argument errors are usage errors (exit 2), the rest are bugs. */
export function toCliFailure(error: unknown): CliFailure {
  if (error instanceof InterruptedError)
    return {
      code: error.code,
      message: error.message,
      hint: "",
      location: null,
      exitCode: error.signal === "SIGINT" ? 130 : 143,
      stack: null,
    };
  if (error instanceof PlaybookError) {
    return {
      code: error.code,
      message: error.message,
      hint: error.hint,
      location: error.location ?? null,
      exitCode: error.code === "E_USAGE" ? 2 : 1,
      stack: null,
    };
  }
  // citty colours parts of its messages; the caller decides about colour.
  const message = stripColors(
    error instanceof Error ? error.message : String(error),
  );
  if (error instanceof Error && error.name === "CLIError") {
    return {
      code: "E_USAGE",
      message,
      hint: "Run `playbook --help` for the commands.",
      location: null,
      exitCode: 2,
      stack: null,
    };
  }
  return {
    code: "E_INTERNAL",
    message,
    hint: BUG_HINT,
    location: null,
    exitCode: 1,
    stack: error instanceof Error && error.stack ? error.stack : null,
  };
}

/** `file`, `file:line` or `file:line:column`, as far as the location goes. */
export function formatLocation(location: ErrorLocation): string {
  const { file, line, column } = location;
  if (line === undefined) return file;
  return column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`;
}

/**
 * The stderr text of a failure: `error <message>` and the hint, with control characters made visible. One about a
 * place in a file starts as a lint diagnostic does, `file:line:col  error  message`, so editors and terminals that
 * link diagnostics link it too.
 */
export function formatFailure(failure: CliFailure, c: Colors): string {
  const label = c.red(
    failure.code === "E_INTERNAL" ? "internal error" : "error",
  );
  const message = toTerminalText(failure.message);
  const lines = [
    // The user stopped it: no error, one line that says what was left behind.
    failure.code === "E_INTERRUPTED"
      ? c.yellow(message)
      : failure.location
        ? `${c.bold(toTerminalText(formatLocation(failure.location)))}  ${label}  ${message}`
        : `${label} ${message}`,
    ...(failure.hint === "" ? [] : [c.dim(toTerminalText(failure.hint))]),
    ...(failure.stack?.split("\n").map((line) => toTerminalText(line)) ?? []),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * The `error` object of the `--json` form: `code`, `message`, `hint`, and `location` (`file`, then `line` and
 * `column` when known) only when there is one, so a script tests for the key rather than for null.
 */
export function failureJson(failure: CliFailure): {
  code: string;
  message: string;
  hint: string;
  location?: ErrorLocation;
} {
  const { code, message, hint, location } = failure;
  if (!location) return { code, message, hint };
  const { file, line, column } = location;
  return {
    code,
    message,
    hint,
    location: {
      file,
      ...(line === undefined ? {} : { line }),
      ...(column === undefined ? {} : { column }),
    },
  };
}

/** The `--json` form of a failure, so a script reading stdout always gets one JSON object. */
export function formatFailureJson(failure: CliFailure): string {
  return `${JSON.stringify({ error: failureJson(failure) }, null, 2)}\n`;
}
