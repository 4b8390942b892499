/** One validation the archive's final gate ran again on the commit it pushes (a row of `check --rerun --record`). */
export interface GateRow {
  subtask: string;
  validation: string;
  command: string;
  rerun: "PASS" | "FAIL";
  exitCode: number | null;
  outputTail: readonly string[];
  /** Why it does not prove the commit, or null when it does. */
  problem: string | null;
}

/** What the gate found: each validation's row, and what else keeps the committed playbook from being finished. */
export interface GateVerdict {
  rows: readonly GateRow[];
  unproven: readonly string[];
}

/** How the archive runs its final gate (`check --rerun --at HEAD --record` of one playbook). */
export interface GateOptions {
  /** Told each validation as it finishes. */
  onRow?: ((row: GateRow) => void) | undefined;
  /** At most this many seconds for all of them together; unbounded when absent. */
  budgetSeconds?: number | undefined;
  /** Ctrl-C or SIGTERM: ends the running validation and its whole process tree, and stops the gate. */
  signal?: AbortSignal | undefined;
}

/** Whether the commit is proven; if not, why (see {@link toGateFailure}) and whether only the time ran out. */
export interface GateOutcome {
  ok: boolean;
  detail: string;
  outOfTime: boolean;
  /** Stopped by Ctrl-C or SIGTERM (`GateOptions.signal`): nothing it ran was recorded. */
  interrupted?: boolean;
  /** How many validations passed on the commit. */
  passed: number;
}

const TAIL_LINES = 5;
const LINE_CHARS = 200;

/** The progress line of one validation as it finishes: `✓ p1.1 tests: npm test (exit 0)`. */
export function toGateProgressLine(row: GateRow): string {
  return `${row.problem === null ? "✓" : "✗"} ${row.subtask} ${row.validation}: ${oneLine(row.command)} (${exitText(row)})`;
}

/**
 * Why the gate refused, for the archive's stop: each failing validation with its subtask, command, exit code and the
 * tail of its output (the first three), then what else is missing. The output is the commands': control characters
 * are dropped and each line is cut, so it cannot rewrite the terminal or flood the journal.
 */
export function toGateFailure(verdict: GateVerdict): string {
  const failing = verdict.rows.filter((r) => r.problem !== null);
  const parts = failing.slice(0, 3).map((row) => {
    const tail = row.outputTail
      .map(oneLine)
      .filter((line) => line !== "")
      .slice(-TAIL_LINES);
    return `${row.subtask} ${row.validation} \`${oneLine(row.command)}\` (${exitText(row)}): ${row.problem ?? ""}${tail.length > 0 ? `; its output ends: ${tail.join(" ⏎ ")}` : ""}`;
  });
  if (failing.length > 3) parts.push(`and ${failing.length - 3} more`);
  if (verdict.unproven.length > 0)
    parts.push(
      `the committed playbook is not finished as approved: ${verdict.unproven.slice(0, 5).join("; ")}${verdict.unproven.length > 5 ? ` (and ${verdict.unproven.length - 5} more)` : ""}`,
    );
  return parts.join("; ");
}

function exitText(row: GateRow): string {
  return row.exitCode === null
    ? "did not run to an exit"
    : `exit ${row.exitCode}`;
}

function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  return plain.length > LINE_CHARS
    ? `${plain.slice(0, LINE_CHARS - 1)}…`
    : plain;
}
