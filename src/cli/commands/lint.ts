import { defineCommand } from "citty";
import { runLint } from "../../app/lint/lint.ts";
import { hasErrors } from "../../core/model/diagnostic.ts";
import { createColors } from "../print/colors.ts";
import { formatCounts, formatDiagnostics } from "../print/diagnostics.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const lintCommand = defineCommand({
  meta: {
    name: "lint",
    description: "Check state.md and playbooks; exit 1 when any has an error",
  },
  args: {
    ...sharedArgs,
    files: {
      type: "positional",
      required: false,
      description:
        "Files to lint (default: state.md, the active playbook, plan/playbook-*.md)",
    },
  },
  run({ args }) {
    const report = runLint(projectRoot(args), args._);
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify(
          {
            files: report.files,
            diagnostics: report.diagnostics,
            errorCount: report.diagnostics.filter((d) => d.severity === "error")
              .length,
            warningCount: report.diagnostics.filter(
              (d) => d.severity === "warning",
            ).length,
          },
          null,
          2,
        )}\n`,
      );
    } else {
      const c = createColors();
      const lines = formatDiagnostics(report.diagnostics, c);
      lines.push(formatCounts(report.diagnostics, report.files.length));
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    if (hasErrors(report.diagnostics)) process.exitCode = 1;
  },
});
