import { defineCommand } from "citty";
import { assertRuntimeWritable } from "../../app/records/runtime-writable.ts";
import { createArchiveDeps } from "../../app/deps.ts";
import { runArchive, type StepReport } from "../../app/archive/run-archive.ts";
import { toGateProgressLine } from "../../core/archive/final-gate.ts";
import { watchInterrupt } from "../../adapters/interrupt.ts";
import { InterruptedError, PlaybookError } from "../../core/errors.ts";
import { createColors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const archiveCommand = defineCommand({
  meta: {
    name: "archive",
    description:
      "Commit, push, open and merge the pull request of the finished playbook, archive it, set the post-loop lock",
  },
  args: {
    ...sharedArgs,
    "dry-run": {
      type: "boolean",
      description: "Print the plan; change nothing",
      default: false,
    },
    resume: {
      type: "boolean",
      description:
        "Continue an archive that stopped (see .claude/playbook/archive-journal.json)",
      default: false,
    },
    provider: {
      type: "string",
      description:
        "github or local (default: archive.provider in .claude/playbook.json)",
      valueHint: "github|local",
    },
    session: {
      type: "string",
      description:
        "The Claude Code session the post-loop lock belongs to (default: CLAUDE_CODE_SESSION_ID)",
      valueHint: "id",
    },
  },
  async run({ args }) {
    const provider = args.provider;
    if (provider !== undefined && provider !== "github" && provider !== "local")
      throw new PlaybookError(
        "E_USAGE",
        `Unexpected --provider ${provider}, expected github or local.`,
        { hint: "Run `playbook archive --help`." },
      );
    const root = projectRoot(args);
    if (!args["dry-run"])
      assertRuntimeWritable(root, "playbook archive", ".claude/playbook");
    const c = createColors();
    const print = (text: string) => {
      if (!args.json) process.stdout.write(`${text}\n`);
    };
    const mark = (report: StepReport) =>
      report.status === "failed"
        ? c.red("✗")
        : report.status === "planned"
          ? c.dim("·")
          : report.status === "skipped"
            ? c.dim("✓")
            : c.green("✓");
    // Ctrl-C ends the final gate's validations with their whole process tree, and stops before the next step.
    const interrupt = args["dry-run"] ? null : watchInterrupt();
    const outcome = await runArchive(
      root,
      {
        signal: interrupt?.signal,
        dryRun: args["dry-run"],
        resume: args.resume,
        provider: provider ?? null,
        session: args.session ?? process.env["CLAUDE_CODE_SESSION_ID"] ?? null,
        onProgress: (report) =>
          print(
            `${mark(report)} ${report.id.padEnd(16)} ${toTerminalText(report.detail)}`,
          ),
        // One line per validation as the final gate finishes it, before the push step's line.
        onGateRow: (row) =>
          print(
            `${row.problem === null ? c.dim("·") : c.red("·")} ${"final-gate".padEnd(16)} ${toTerminalText(toGateProgressLine(row))}`,
          ),
      },
      createArchiveDeps(root),
    ).finally(() => interrupt?.stop());
    if (interrupt?.signal.aborted === true) {
      const signal = interrupt.signal.reason === "SIGTERM" ? "SIGTERM" : "SIGINT";
      throw new InterruptedError(
        signal,
        `Interrupted by ${signal === "SIGINT" ? "Ctrl-C (SIGINT)" : "SIGTERM"}: the archive of ${toTerminalText(outcome.journal.playbook)} stopped at ${outcome.steps.at(-1)?.id ?? "its start"}${outcome.journal.steps["push"]?.status === "done" ? "" : "; nothing was pushed"}. Next: run \`playbook archive --resume\`.`,
      );
    }
    if (args.json) {
      process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
      if (outcome.status === "partial") process.exitCode = 1;
      return;
    }
    const { journal } = outcome;
    if (outcome.status === "planned") {
      print(
        `archive plan for ${toTerminalText(journal.playbook)} (${journal.provider}, ${toTerminalText(journal.branch)} → ${toTerminalText(journal.defaultBranch)}):`,
      );
      for (const step of outcome.steps)
        print(
          `${mark(step)} ${step.id.padEnd(16)} ${toTerminalText(step.detail)}`,
        );
    }
    for (const note of outcome.notes)
      print(c.yellow(`note: ${toTerminalText(note)}`));
    if (outcome.status === "already-archived") {
      const next = outcome.next ?? "";
      print(
        `${c.green("already archived")}: ${toTerminalText(journal.playbook)} → ${toTerminalText(journal.archivePath)}${journal.pr ? `, ${toTerminalText(journal.pr.url)}` : ""}. Next: ${toTerminalText(next.charAt(0).toLowerCase() + next.slice(1))}`,
      );
      return;
    }
    if (outcome.status === "success")
      print(
        `${c.green("archived")} ${toTerminalText(journal.playbook)} → ${toTerminalText(journal.archivePath)}${journal.pr ? `, ${toTerminalText(journal.pr.url)}` : ""}. ${c.dim("Next: /post-loop (`playbook post-loop`) picks the next task.")}`,
      );
    if (outcome.status === "pending" && journal.pending)
      print(
        `${c.yellow("pending")}: ${toTerminalText(journal.pending.what)}. ${c.dim(`Next: ${toTerminalText(journal.pending.next)}.`)}`,
      );
    if (outcome.status === "partial") {
      print(
        `${c.yellow("partial")}: ${toTerminalText(outcome.next ?? "see above")}`,
      );
      process.exitCode = 1;
    }
  },
});
