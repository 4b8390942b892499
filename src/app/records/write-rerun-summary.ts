import {
  appendStepSummary,
  type StepSummaryOutcome,
} from "../../adapters/step-summary.ts";
import { renderJobSummary } from "../../core/records/job-summary.ts";
import type { RerunReport } from "./rerun.ts";

/**
 * In GitHub Actions, appends the re-run's proof table to the step's job summary (docs/ci.md): per playbook the table
 * the pull request's body shows, each validation marked with what its re-run found. Elsewhere it writes nothing.
 * `projects` are the folders the check read (the checkout, and with `--pr` the pull request's): the summary is never
 * written into them.
 */
export function writeRerunSummary(
  report: RerunReport,
  projects: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): StepSummaryOutcome {
  return appendStepSummary(env, projects, (room) =>
    renderJobSummary(report, room),
  );
}
