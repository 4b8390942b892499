import { PLAN_STEP } from "../../core/session/next-step.ts";
import type { Colors } from "./colors.ts";
import type { StatusReport } from "../../app/lint/status.ts";
import { formatDiagnostics } from "./diagnostics.ts";
import { toTerminalText } from "./terminal-text.ts";

const BAR_WIDTH = 20;

function progressBar(done: number, total: number, c: Colors): string {
  const filled = total === 0 ? 0 : Math.round((done / total) * BAR_WIDTH);
  return c.green("█".repeat(filled)) + c.dim("░".repeat(BAR_WIDTH - filled));
}

/** The human view of `playbook status`; text from the documents has its control characters made visible. */
export function formatStatus(unsafe: StatusReport, c: Colors): string[] {
  const report = toTerminalText(unsafe);
  const lines: string[] = [];
  if (report.unreadableActive !== null) {
    lines.push(
      `${c.bold("playbook")}  ${c.red("cannot read")} ${report.unreadableActive} (see diagnostics)`,
    );
  } else if (report.active === null) {
    lines.push(`${c.bold("playbook")}  none active`);
    lines.push(
      c.dim(
        report.initialised
          ? "Start one: in Claude Code, /playbook-init followed by what you want done; in a terminal, `playbook new <name>`."
          : "This project is not set up for playbook (no state.md). Run `playbook init`.",
      ),
    );
  } else {
    const reviewed = !report.reviewed
      ? c.yellow("not reviewed")
      : report.review === "approved"
        ? c.green("reviewed")
        : c.red(
            report.review === "stale"
              ? "reviewed, but the plan changed after the approval"
              : "reviewed, but no approval on record",
          );
    lines.push(
      `${c.bold("playbook")}  ${report.active}  ${c.dim(`(${report.branch ?? "no branch"})`)}  ${reviewed}`,
    );
    if (report.summary) lines.push(`${c.bold("goal")}      ${report.summary}`);
    if (report.currentPhase)
      lines.push(`${c.bold("phase")}     ${report.currentPhase}`);
  }
  if (report.phases.length > 0) {
    lines.push("");
    const idWidth = Math.max(...report.phases.map((p) => p.id.length));
    const nameWidth = Math.min(
      32,
      Math.max(...report.phases.map((p) => p.name.length)),
    );
    for (const phase of report.phases) {
      const name =
        phase.name.length > nameWidth
          ? `${phase.name.slice(0, nameWidth - 1)}…`
          : phase.name;
      const status =
        phase.status === "done"
          ? c.green(phase.status)
          : phase.status === "in_progress"
            ? c.cyan(phase.status)
            : c.dim(phase.status);
      const critic =
        phase.critic === "PASS"
          ? `  ${c.green("critic PASS")}`
          : phase.critic === "FAIL"
            ? `  ${c.red("critic FAIL")}`
            : phase.status === "done"
              ? `  ${c.red("no critic PASS")}`
              : "";
      lines.push(
        `${phase.id.padEnd(idWidth)}  ${name.padEnd(nameWidth)}  ${progressBar(phase.done, phase.total, c)}  ${`${phase.done}/${phase.total}`.padStart(7)}  ${status}${critic}`,
      );
    }
    if (report.finalTasks.total > 0) {
      lines.push(
        `${"final tasks".padEnd(idWidth + nameWidth + 2)}  ${progressBar(report.finalTasks.done, report.finalTasks.total, c)}  ${`${report.finalTasks.done}/${report.finalTasks.total}`.padStart(7)}`,
      );
    }
  }
  const step = report.step;
  if (step) {
    lines.push(
      "",
      `${c.bold("next")}      ${step.kind === "plan" ? `${PLAN_STEP[step.missing]}: ` : ""}${step.text}`,
    );
    if (step.kind !== "plan" && report.next.length > 0) {
      lines.push(c.bold("open"));
      for (const item of report.next)
        lines.push(
          `  ${item.id}  ${item.criterion}${item.proven ? `  ${c.green("(proven: tick it)")}` : ""}`,
        );
    }
  }
  if (report.lock) {
    const lock = report.lock;
    lines.push(
      "",
      `${c.bold("lock")}      post-loop lock: ${lock.playbook ?? "the last playbook"} was archived${lock.pr ? ` (${lock.pr})` : ""}, status ${lock.status}. Next: \`playbook post-loop\``,
    );
  }
  const unfinished = report.unfinishedArchive;
  if (unfinished?.pending) {
    if (!report.lock) lines.push("");
    lines.push(
      `${c.bold("merge")}     pending: ${unfinished.pending.what}. Next: ${unfinished.pending.next}`,
    );
  } else if (unfinished) {
    if (!report.lock) lines.push("");
    lines.push(
      `${c.bold("archive")}   unfinished: ${unfinished.playbook} on ${unfinished.branch}. Next: \`playbook archive --resume\``,
    );
  }
  lines.push("");
  if (report.problems.length > 0)
    lines.push(
      c.bold(
        `${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}`,
      ),
      ...report.problems.map((p) => `  ${c.red(p)}`),
    );
  if (report.diagnostics.length > 0)
    lines.push(
      c.bold("diagnostics"),
      ...formatDiagnostics(report.diagnostics, c).map((l) => `  ${l}`),
    );
  if (report.problems.length === 0 && report.diagnostics.length === 0)
    lines.push(c.green("no problems found"));
  return lines;
}
