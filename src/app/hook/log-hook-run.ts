import { appendBoundedLog } from "../../adapters/runtime-files.ts";
import type { HookEvent } from "../../core/guards/events.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";
import type { HookRun } from "./hook-run.ts";

/** One line per call in hook-timing.log, and the reason of every block in block-reasons.log. */
export function logHookRun(
  run: HookRun,
  event: HookEvent,
  totalMs: number,
  at: Date,
): void {
  if (!run.projectDir) return;
  try {
    const guards = (run.verdict?.timings ?? [])
      .map((t) => `${t.guard}:${t.ms.toFixed(2)}`)
      .join(",");
    const outcome =
      run.answer.block !== null
        ? `block:${run.verdict?.block?.guard ?? "?"}`
        : run.answer.context.length > 0
          ? "context"
          : "allow";
    appendBoundedLog(
      run.projectDir,
      "hook-timing.log",
      [
        toIsoTime(at),
        event,
        run.tool ?? "-",
        totalMs.toFixed(1),
        outcome,
        guards || "-",
      ].join("\t"),
    );
    if (run.answer.block !== null)
      appendBoundedLog(
        run.projectDir,
        "block-reasons.log",
        [
          toIsoTime(at),
          event,
          run.tool ?? "-",
          run.verdict?.block?.guard ?? "-",
          run.answer.block,
        ].join("\t"),
      );
    for (const failure of run.verdict?.failures ?? [])
      appendBoundedLog(
        run.projectDir,
        "block-reasons.log",
        [
          toIsoTime(at),
          event,
          run.tool ?? "-",
          failure.guard,
          `guard failed${failure.failClosed ? " (fail-closed)" : ""}: ${failure.error}`,
        ].join("\t"),
      );
  } catch {
    // Logs only help diagnosis; a read-only checkout must still get its answer.
  }
}
