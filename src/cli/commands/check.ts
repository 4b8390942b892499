import { defineCommand } from "citty";
import { runCheck } from "../../app/run-check.ts";
import { hasErrors, type Diagnostic } from "../../core/model/diagnostic.ts";
import { PlaybookError } from "../../core/errors.ts";
import { createColors } from "../print/colors.ts";
import { formatCounts, formatDiagnostics } from "../print/diagnostics.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const checkCommand = defineCommand({
  meta: {
    name: "check",
    description:
      "For CI: lint every playbook and check that each checked box, reviewed flag and done phase has a current record",
  },
  args: {
    ...sharedArgs,
    format: {
      type: "string",
      description:
        "text or github (annotations; the default when GITHUB_ACTIONS is true)",
      valueHint: "text|github",
    },
  },
  run({ args }) {
    const format =
      args.format ??
      (process.env["GITHUB_ACTIONS"] === "true" ? "github" : "text");
    if (format !== "text" && format !== "github")
      throw new PlaybookError(
        "E_USAGE",
        `Unexpected --format ${format}, expected text or github.`,
        { hint: "Run `playbook check --help`." },
      );
    const report = runCheck(projectRoot(args));
    const failed = hasErrors(report.diagnostics);
    if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (format === "github") {
      const lines = report.diagnostics.map(toAnnotation);
      lines.push(
        `playbook check: ${report.playbooks.length} playbook${report.playbooks.length === 1 ? "" : "s"}, ${report.diagnostics.filter((d) => d.severity === "error").length} errors`,
      );
      process.stdout.write(`${lines.join("\n")}\n`);
    } else {
      const c = createColors();
      const lines = formatDiagnostics(report.diagnostics, c);
      lines.push(formatCounts(report.diagnostics, report.files.length));
      if (!failed)
        lines.push(
          `${report.playbooks.length} playbook${report.playbooks.length === 1 ? "" : "s"}: every claim has a current record`,
        );
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    if (failed) process.exitCode = 1;
  },
});

/** A GitHub Actions workflow command: shows the problem on the line of the pull request's diff. */
function toAnnotation(d: Diagnostic): string {
  const escape = (text: string) =>
    text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const property = (text: string) =>
    escape(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
  return `::${d.severity === "error" ? "error" : "warning"} file=${property(d.file)},line=${d.line},col=${d.column},title=${property(`playbook ${d.code}`)}::${escape(d.message)}`;
}
