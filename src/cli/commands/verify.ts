import { defineCommand } from "citty";
import { createVerifyDeps } from "../../app/deps.ts";
import { watchInterrupt } from "../../adapters/interrupt.ts";
import {
  runVerify,
  verifyTargets,
  type VerifyProgress,
  type VerifyReport,
  type VerifyResult,
} from "../../app/records/verify.ts";
import { assertRuntimeWritable } from "../../app/records/runtime-writable.ts";
import { PlaybookError } from "../../core/errors.ts";
import { createColors, type Colors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const DEFAULT_TIMEOUT_SECONDS = 300;

/** The longest validation name, `completeness`: the result lines line up. */
const VALIDATION_WIDTH = 12;

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
    const c = createColors();
    // Human output comes as it happens: the subtask and the sandbox first, then one line per finished validation.
    const print = (lines: string[]) => {
      if (!args.json && lines.length > 0)
        process.stdout.write(`${lines.join("\n")}\n`);
    };
    const interrupt = watchInterrupt();
    try {
      for (const subtask of verifyTargets(root, id, args.playbook)) {
        const report = await runVerify(
          root,
          {
            subtask,
            playbook: args.playbook,
            timeoutMs: timeout * 1000,
            signal: interrupt.signal,
            onProgress: (event) =>
              print([
                // A phase's subtasks, one block each.
                ...(event.kind === "start" && reports.length > 0 ? [""] : []),
                ...formatProgress(event, c),
              ]),
          },
          createVerifyDeps(),
        );
        const ok = !report.results.some((r) => r.verdict === "FAIL");
        reports.push({ ...report, ok, next: nextSteps(report) });
        print(formatSummary(report, c));
      }
    } finally {
      interrupt.stop();
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

/** The lines for an event of a run: the subtask and the sandbox as it starts, then each validation as it finishes. */
function formatProgress(unsafe: VerifyProgress, c: Colors): string[] {
  const event = toTerminalText(unsafe);
  if (event.kind === "result") return formatResult(event.subtask, event.result, c);
  const lines = [
    `${c.bold(event.subtask)}  ${event.criterion}  ${c.dim(event.playbook)}`,
  ];
  if (event.planned === 0)
    lines.push(c.dim("No automated or hybrid validation to run."));
  else if (!event.sandbox.sandboxed)
    lines.push(
      c.red(
        `⚠ NOT SANDBOXED: ${event.sandbox.why}. These commands ran with full access to this project, its records included; the evidence says \`sandboxed: false\`. To sandbox them: ${event.sandbox.next}.`,
      ),
    );
  else
    for (const warning of event.sandbox.warnings)
      lines.push(c.dim(`sandbox: ${warning}`));
  return lines;
}

/** One finished validation: verdict, subtask, validation, time, command and how it ended; for a failure, its output. */
function formatResult(subtask: string, result: VerifyResult, c: Colors): string[] {
  const { run } = result;
  const pass = result.verdict === "PASS";
  const outcome = run.timedOut
    ? "timed out"
    : run.error !== null
      ? `could not start: ${run.error}`
      : run.exitCode !== null
        ? `exit ${run.exitCode}`
        : `killed by ${run.signal ?? "a signal"}`;
  const lines = [
    `${pass ? c.green("✓") : c.red("✗")} ${subtask} ${result.validation.padEnd(VALIDATION_WIDTH)}  ${pass ? c.green("PASS") : c.red("FAIL")}  ${c.dim(formatDuration(run.durationMs).padStart(6))}  ${result.command}  ${pass ? outcome : c.red(outcome)}`,
  ];
  if (!pass)
    for (const line of run.outputTail.slice(-10))
      lines.push(c.dim(`    ${line}`));
  if (result.refusal !== null)
    lines.push(
      c.yellow(
        `    refused by the sandbox: ${result.refusal.what}${result.refusal.key ? ` (\`${result.refusal.key}\` in .claude/playbook.json allows it)` : ""}`,
      ),
    );
  return lines;
}

/** After a subtask's validations: how many passed in how long, and what to do next. */
function formatSummary(report: VerifyReport, c: Colors): string[] {
  const passed = report.results.filter((r) => r.verdict === "PASS").length;
  const total = report.results.length;
  const ms = report.results.reduce((sum, r) => sum + r.run.durationMs, 0);
  return [
    ...(total > 0
      ? [
          `${passed === total ? c.green(report.subtask) : c.red(report.subtask)}: ${passed} of ${total} validation${total === 1 ? "" : "s"} passed in ${formatDuration(ms)}`,
        ]
      : []),
    "",
    ...toTerminalText(nextSteps(report)).map((step) => `Next: ${step}`),
  ];
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}
