import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineCommand } from "citty";
import { runCheck } from "../../app/lint/check.ts";
import { watchInterrupt } from "../../adapters/interrupt.ts";
import { runRerun, type RerunReport } from "../../app/records/rerun.ts";
import { createVerifyDeps } from "../../app/deps.ts";
import { writeRerunSummary } from "../../app/records/write-rerun-summary.ts";
import { hasErrors, type Diagnostic } from "../../core/model/diagnostic.ts";
import { PlaybookError } from "../../core/errors.ts";
import { createColors, type Colors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { formatCounts, formatDiagnostics } from "../print/diagnostics.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";
import { DEFAULT_TIMEOUT_SECONDS, parseTimeout } from "./verify.ts";

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
    rerun: {
      type: "boolean",
      description:
        "Also run each checked subtask's automated validations again in the sandbox and compare them with the evidence (writes nothing)",
    },
    base: {
      type: "string",
      description:
        "With --rerun: only the playbooks changed since the merge base with this ref, e.g. origin/main",
      valueHint: "ref",
    },
    playbook: {
      type: "string",
      description: "With --rerun: only this playbook",
      valueHint: "path",
    },
    timeout: {
      type: "string",
      description: `With --rerun: seconds each command may run (default: ${DEFAULT_TIMEOUT_SECONDS})`,
      valueHint: "seconds",
    },
    at: {
      type: "string",
      description:
        "With --rerun: run the validations in a clean checkout of this commit, where ignored and uncommitted files are not (e.g. HEAD)",
      valueHint: "rev",
    },
    pr: {
      type: "string",
      description:
        "With --rerun --base, for CI: check the pull request checked out in this folder as data, with this project's playbook and configuration",
      valueHint: "dir",
    },
    record: {
      type: "boolean",
      description:
        "With --rerun --at: the archive's final gate; evidence of an earlier tree does not count against the commit, and each validation that passes gets fresh evidence",
    },
    budget: {
      type: "string",
      description:
        "With --rerun: seconds all the commands together may run; those left over fail as not run (the hook's archive)",
      valueHint: "seconds",
    },
    progress: {
      type: "boolean",
      description:
        "With --rerun: print each validation on stderr as it finishes, one JSON line each (the archive shows its final gate with them)",
    },
  },
  async run({ args }) {
    const format =
      args.format ??
      (process.env["GITHUB_ACTIONS"] === "true" ? "github" : "text");
    if (format !== "text" && format !== "github")
      throw new PlaybookError(
        "E_USAGE",
        `Unexpected --format ${format}, expected text or github.`,
        { hint: "Run `playbook check --help`." },
      );
    const root = projectRoot(args);
    const pr = args.pr === undefined ? undefined : pullRequestDir(root, args.pr);
    if (pr !== undefined && !args.rerun)
      throw new PlaybookError("E_USAGE", "--pr needs --rerun.", {
        hint: "Run `playbook check --rerun --pr <dir> --base <base commit>`.",
      });
    const report =
      pr === undefined ? runCheck(root) : runCheck(pr, { pullRequest: true });
    const interrupt = args.rerun ? watchInterrupt() : null;
    let rerun: RerunReport | null;
    try {
      rerun = interrupt
        ? await runRerun(
            root,
            {
              playbooks:
                args.playbook === undefined ? undefined : [args.playbook],
              base: args.base,
              at: args.at,
              record: args.record,
              pr,
              onRow: args.progress
                ? (row) =>
                    process.stderr.write(
                      `${JSON.stringify({ rerunRow: row })}\n`,
                    )
                : undefined,
              timeoutMs: parseTimeout(args.timeout) * 1000,
              budgetMs:
                args.budget === undefined
                  ? undefined
                  : parseTimeout(args.budget, "--budget") * 1000,
              signal: interrupt.signal,
            },
            createVerifyDeps(),
          )
        : null;
    } finally {
      interrupt?.stop();
    }
    const failed = hasErrors(report.diagnostics) || (rerun !== null && !rerun.ok);
    if (rerun) {
      const summary = writeRerunSummary(
        rerun,
        pr === undefined ? [root] : [root, pr],
        process.env,
      );
      if (summary.status === "refused")
        process.stderr.write(
          `playbook check: no job summary written: ${toTerminalText(summary.why)}. The check's verdict is unchanged.\n`,
        );
    }
    if (args.json)
      process.stdout.write(
        `${JSON.stringify(rerun ? { ...report, rerun } : report, null, 2)}\n`,
      );
    else if (format === "github") {
      const lines = report.diagnostics.map(toAnnotation);
      lines.push(
        `playbook check: ${report.playbooks.length} playbook${report.playbooks.length === 1 ? "" : "s"}, ${report.diagnostics.filter((d) => d.severity === "error").length} errors`,
      );
      if (rerun) lines.push(...formatRerun(rerun, createColors()));
      process.stdout.write(`${lines.join("\n")}\n`);
    } else {
      const c = createColors();
      const lines = formatDiagnostics(report.diagnostics, c);
      lines.push(formatCounts(report.diagnostics, report.files.length));
      if (!hasErrors(report.diagnostics))
        lines.push(
          `${report.playbooks.length} playbook${report.playbooks.length === 1 ? "" : "s"}: every claim has a current record`,
        );
      if (rerun) lines.push("", ...formatRerun(rerun, c));
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    if (failed) process.exitCode = 1;
  },
});

/** The pull request's folder, resolved from the project root: a git checkout, or a usage error. */
function pullRequestDir(root: string, dir: string): string {
  const path = resolve(root, dir);
  if (!existsSync(join(path, ".git")))
    throw new PlaybookError(
      "E_USAGE",
      `--pr ${dir}: ${path} is not a git checkout.`,
      {
        hint: "Check the pull request out there first (actions/checkout with `path:`), then run the command again.",
      },
    );
  return path;
}

/** A GitHub Actions workflow command: shows the problem on the line of the pull request's diff. */
function toAnnotation(d: Diagnostic): string {
  const escape = (text: string) =>
    text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const property = (text: string) =>
    escape(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
  return `::${d.severity === "error" ? "error" : "warning"} file=${property(d.file)},line=${d.line},col=${d.column},title=${property(`playbook ${d.code}`)}::${escape(d.message)}`;
}

/** One line per validation run again: the evidence, the rerun, and what disagrees. */
function formatRerun(unsafe: RerunReport, c: Colors): string[] {
  const report = toTerminalText(unsafe);
  const lines: string[] = [];
  if (!report.sandbox.sandboxed)
    lines.push(
      c.red(`⚠ NOT SANDBOXED: ${report.sandbox.why}. The commands ran with full access to this project.`),
    );
  if (report.rows.length === 0)
    lines.push(
      `rerun: no checked subtask with an automated validation in ${report.playbooks.length === 0 ? "any playbook" : report.playbooks.join(", ")}`,
    );
  const width = Math.max(0, ...report.rows.map((r) => `${r.subtask} ${r.validation}`.length));
  for (const row of report.rows)
    lines.push(
      `${row.problem === null ? c.green("✓") : c.red("✗")} ${`${row.subtask} ${row.validation}`.padEnd(width)}  evidence ${row.evidence ?? "none"}  rerun ${row.rerun}  ${row.command}${row.problem === null ? "" : c.red(`  ${row.problem}`)}  ${c.dim(row.playbook)}`,
    );
  for (const gap of report.unproven)
    lines.push(c.red(`✗ not finished as approved: ${gap}`));
  if (report.forAPerson.length > 0)
    lines.push(
      c.red(
        `✗ This pull request changes what CI cannot judge: ${report.forAPerson.join(", ")}. A person must review it and merge it; it never passes this check.`,
      ),
    );
  const bad = report.rows.filter((r) => r.problem !== null);
  lines.push(
    bad.length === 0
      ? `rerun: ${report.rows.length} validation${report.rows.length === 1 ? "" : "s"} agree with their evidence`
      : `rerun: ${bad.length} of ${report.rows.length} disagree. Next: fix the code or the validation, run ${[
          ...new Set(
            bad.map(
              (r) =>
                `\`npx --no playbook verify ${r.subtask}${report.playbooks.length > 1 ? ` --playbook ${r.playbook}` : ""}\``,
            ),
          ),
        ].join(", ")}, and commit the records.`,
  );
  return lines;
}
