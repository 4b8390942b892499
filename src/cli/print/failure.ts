import { InterruptedError, PlaybookError } from "../../core/errors.ts";
import { stripColors, type Colors } from "./colors.ts";
import { toTerminalText } from "./terminal-text.ts";

/** What the CLI reports when a command fails: the same facts for stderr and for `--json` on stdout. */
export interface CliFailure {
  /** A `PlaybookError` code, or `E_INTERNAL` for anything else: a bug. */
  code: string;
  message: string;
  hint: string;
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
      exitCode: error.signal === "SIGINT" ? 130 : 143,
      stack: null,
    };
  if (error instanceof PlaybookError) {
    return {
      code: error.code,
      message: error.message,
      hint: error.hint ?? "Run `playbook --help`.",
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
      exitCode: 2,
      stack: null,
    };
  }
  return {
    code: "E_INTERNAL",
    message,
    hint: BUG_HINT,
    exitCode: 1,
    stack: error instanceof Error && error.stack ? error.stack : null,
  };
}

/** The stderr text of a failure: `error <message>` and the hint, with control characters made visible. */
export function formatFailure(failure: CliFailure, c: Colors): string {
  const label = failure.code === "E_INTERNAL" ? "internal error" : "error";
  const lines = [
    // The user stopped it: no error, one line that says what was left behind.
    failure.code === "E_INTERRUPTED"
      ? c.yellow(toTerminalText(failure.message))
      : `${c.red(label)} ${toTerminalText(failure.message)}`,
    ...(failure.hint === "" ? [] : [c.dim(toTerminalText(failure.hint))]),
    ...(failure.stack?.split("\n").map((line) => toTerminalText(line)) ?? []),
  ];
  return `${lines.join("\n")}\n`;
}

/** The `--json` form of a failure, so a script reading stdout always gets one JSON object. */
export function formatFailureJson(failure: CliFailure): string {
  const { code, message, hint } = failure;
  return `${JSON.stringify({ error: { code, message, hint } }, null, 2)}\n`;
}
