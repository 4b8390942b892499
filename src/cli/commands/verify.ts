import { defineCommand } from "citty";
import { createVerifyDeps } from "../../app/deps.ts";
import {
  runVerify,
  verifyTargets,
  type VerifyReport,
} from "../../app/records/verify.ts";
import { assertRuntimeWritable } from "../../app/records/runtime-writable.ts";
import { PlaybookError } from "../../core/errors.ts";
import { createColors, type Colors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const DEFAULT_TIMEOUT_SECONDS = 300;

export const verifyCommand = defineCommand({
  meta: {
    name: "verify",
    description:
      "Run a subtask's automated validations (or every subtask's of a phase) and record the evidence",
  },
  args: {
    ...sharedArgs,
    subtask: {
      type: "positional",
      required: true,
      description: "The subtask id, e.g. p1.1, or a phase id (p1) for all its subtasks",
      valueHint: "subtask",
    },
    timeout: {
      type: "string",
      description: `Seconds each command may run (default: ${DEFAULT_TIMEOUT_SECONDS})`,
      valueHint: "seconds",
    },
    playbook: {
      type: "string",
      description: "The playbook (default: `active` in state.md)",
      valueHint: "path",
    },
  },
  async run({ args }) {
    const id = requireSubtask(args.subtask, args._, "verify");
    const timeout = parseTimeout(args.timeout);
    const root = projectRoot(args);
    assertRuntimeWritable(root, `playbook verify ${id}`);
    const reports: (VerifyReport & { ok: boolean; next: string[] })[] = [];
    for (const subtask of verifyTargets(root, id, args.playbook)) {
      const report = await runVerify(
        root,
        { subtask, playbook: args.playbook, timeoutMs: timeout * 1000 },
        createVerifyDeps(),
      );
      const ok = !report.results.some((r) => r.verdict === "FAIL");
      reports.push({ ...report, ok, next: nextSteps(report) });
      if (!args.json)
        process.stdout.write(
          `${formatVerify(report, createColors()).join("\n")}\n`,
        );
    }
    if (args.json)
      process.stdout.write(
        `${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`,
      );
    if (reports.some((r) => !r.ok)) process.exitCode = 1;
  },
});

/** The one subtask id a command takes, or a usage error naming what is wrong. */
export function requireSubtask(
  subtask: string | undefined,
  positionals: readonly string[],
  command: "verify" | "confirm",
): string {
  if (subtask === undefined || subtask === "")
    throw new PlaybookError(
      "E_USAGE",
      `Missing the subtask id, expected \`playbook ${command} <subtask>\`, e.g. \`playbook ${command} p1.1\`.`,
      { hint: "`playbook status` shows the subtask ids." },
    );
  const extra = positionals.slice(1);
  if (extra.length > 0)
    throw new PlaybookError(
      "E_USAGE",
      `Unexpected argument ${extra[0] ?? ""}, expected one subtask id: \`playbook ${command} <subtask>\`.`,
      { hint: `Run \`playbook ${command}\` once per subtask.` },
    );
  return subtask;
}

export function parseTimeout(
  raw: string | undefined,
  flag = "--timeout",
): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(seconds > 0) || seconds > 86_400)
    throw new PlaybookError(
      "E_USAGE",
      `Unexpected ${flag} ${raw}, expected a number of seconds between 0 and 86400.`,
      {
        hint: `Write e.g. ${flag} 600${flag === "--timeout" ? `; the default is ${DEFAULT_TIMEOUT_SECONDS}` : ""}.`,
      },
    );
  return seconds;
}

function nextSteps(report: VerifyReport): string[] {
  const id = report.subtask;
  const steps: string[] = [];
  const failed = report.results.filter(
    (r) => r.verdict === "FAIL" && r.refusal === null,
  );
  if (failed.length > 0)
    steps.push(
      `Fix what ${failed.map((r) => r.validation).join(", ")} reported, then run \`playbook verify ${id}\` again.`,
    );
  for (const { validation, refusal } of report.results) {
    if (refusal === null) continue;
    steps.push(
      refusal.key === null
        ? `The sandbox refused ${validation} ${refusal.what}, not the code: ${refusal.why ?? "no setting allows it"}. Change the validation so that it does not need it, then run \`playbook verify ${id}\` again.`
        : `The sandbox refused ${validation} ${refusal.what}, not the code: if the validation needs it, the user adds it to \`${refusal.key}\` in .claude/playbook.json (the agent cannot change that file), then runs \`playbook verify ${id}\` again.`,
    );
  }
  if (report.unspecified.length > 0)
    steps.push(
      `${report.unspecified.join(", ")} ${report.unspecified.length === 1 ? "has" : "have"} no kind (automated, manual or hybrid): say in the playbook how ${report.unspecified.length === 1 ? "it is" : "they are"} proven.`,
    );
  if (report.manual.length > 0 && !report.confirmed)
    steps.push(
      `${report.manual.join(", ")} ${report.manual.length === 1 ? "needs" : "need"} a person: the user runs \`playbook confirm ${id}\` in a terminal.`,
    );
  if (report.changedByRun.length > 0)
    steps.push(
      `The validations changed ${report.changedByRun.slice(0, 3).join(", ")}${report.changedByRun.length > 3 ? ` and ${report.changedByRun.length - 3} more` : ""}, so the evidence proves the code before that and a tick will call it stale. Add generated files to .gitignore (or keep the change), then run \`playbook verify ${id}\` again.`,
    );
  if (steps.length === 0)
    steps.push(
      `Every validation of ${id} is proven: check it (\`- [x] **${id}**\`).`,
    );
  return steps;
}

function formatVerify(unsafe: VerifyReport, c: Colors): string[] {
  const report = toTerminalText(unsafe);
  const lines: string[] = [
    `${c.bold(report.subtask)}  ${report.criterion}  ${c.dim(report.playbook)}`,
  ];
  if (report.results.length === 0)
    lines.push(c.dim("No automated or hybrid validation to run."));
  else if (!report.sandbox.sandboxed)
    lines.push(
      c.red(
        `⚠ NOT SANDBOXED: ${report.sandbox.why}. These commands ran with full access to this project, its records included; the evidence says \`sandboxed: false\`. To sandbox them: ${report.sandbox.next}.`,
      ),
    );
  else
    for (const warning of report.sandbox.warnings)
      lines.push(c.dim(`sandbox: ${warning}`));
  const width = Math.max(0, ...report.results.map((r) => r.validation.length));
  for (const result of report.results) {
    const { run } = result;
    const mark = result.verdict === "PASS" ? c.green("✓") : c.red("✗");
    const outcome = run.timedOut
      ? c.red("timed out")
      : run.error !== null
        ? c.red(`could not start: ${run.error}`)
        : run.exitCode !== null
          ? `exit ${run.exitCode}`
          : `killed by ${run.signal ?? "a signal"}`;
    lines.push(
      `${mark} ${result.validation.padEnd(width)}  ${result.command}  ${result.verdict === "PASS" ? outcome : c.red(outcome)}  ${c.dim(formatDuration(run.durationMs))}`,
    );
    if (result.verdict === "FAIL")
      for (const line of run.outputTail.slice(-10))
        lines.push(c.dim(`    ${line}`));
    if (result.refusal !== null)
      lines.push(
        c.yellow(
          `    refused by the sandbox: ${result.refusal.what}${result.refusal.key ? ` (\`${result.refusal.key}\` in .claude/playbook.json allows it)` : ""}`,
        ),
      );
  }
  lines.push("", ...nextSteps(report).map((step) => `Next: ${step}`));
  return lines;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}
