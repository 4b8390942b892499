/** Where a node or a problem sits in its source file (1-based line and column, 0-based offset). */
export interface Point {
  line: number;
  column: number;
  offset: number;
}

export interface Span {
  start: Point;
  end: Point;
}

export type Severity = "error" | "warning";

/**
 * A problem found in a user's document. `message` reads "Unexpected X, expected Y" and ends with the next step;
 * `code` is a stable kebab id users can grep for.
 */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  column: number;
}

/** Builds a diagnostic at a point of `file`. */
export function diagnosticAt(
  file: string,
  at: { line: number; column: number },
  code: string,
  severity: Severity,
  message: string,
): Diagnostic {
  return { code, severity, message, file, line: at.line, column: at.column };
}

/** Orders diagnostics by file, line, column and code so output is deterministic. */
export function sortDiagnostics(
  diagnostics: readonly Diagnostic[],
): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      compareText(a.file, b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      compareText(a.code, b.code) ||
      compareText(a.message, b.message),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}
