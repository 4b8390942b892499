import type { Colors } from "./colors.ts";
import type { Diagnostic } from "../../core/model/diagnostic.ts";
import { toTerminalText } from "./terminal-text.ts";

/** `file:line:col  severity  message  [code]`, one line per diagnostic, with control characters made visible. */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  c: Colors,
): string[] {
  const lines = toTerminalText(diagnostics).map((d) => {
    const where = c.bold(`${d.file}:${d.line}:${d.column}`);
    const severity =
      d.severity === "error" ? c.red("error") : c.yellow("warning");
    return `${where}  ${severity}  ${d.message}  ${c.dim(`[${d.code}]`)}`;
  });
  return lines;
}

export function formatCounts(
  diagnostics: readonly Diagnostic[],
  files: number,
): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  const plural = (n: number, word: string) =>
    `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(errors, "error")}, ${plural(warnings, "warning")} in ${plural(files, "file")}`;
}
