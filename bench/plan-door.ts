import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { documentNameProblem } from "../src/adapters/document-name.ts";
import { summarizeDocument } from "../src/core/parse/summarize-document.ts";
import type { PlaybookSummary } from "../src/core/model/summary.ts";
import { reviewHash } from "../src/core/records/content-hash.ts";
import { unapprovedPlan } from "../src/core/records/proof-state.ts";
import { createRecordSet } from "../src/core/records/record-set.ts";

const ROUNDS = 20_000;

/** Microseconds per call of `fn`, the median of five runs of ROUNDS calls. */
function perCall(fn: () => unknown): number {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ROUNDS; i++) fn();
    runs.push(Number(process.hrtime.bigint() - start) / 1e3 / ROUNDS);
  }
  return runs.sort((a, b) => a - b)[2] ?? 0;
}

/**
 * What the plan's door adds to each hook call that reads the documents (issue 26), measured in this process: the
 * check that `state.md` and the playbook are their own files (an `lstat` and a `realpath` of the folder), and, on a
 * tick, whether the latest review approves the plan as it is now.
 */
export function benchPlanDoor(project: string, playbookPath: string): string[] {
  const file = join(project, playbookPath);
  const names = perCall(() =>
    documentNameProblem(project, playbookPath, lstatSync(file)),
  );
  const summary = summarizeDocument(
    "playbook",
    readFileSync(file, "utf8"),
    playbookPath,
  ) as PlaybookSummary;
  const records = createRecordSet([
    {
      kind: "review",
      playbook: playbookPath,
      target: "playbook",
      contentHash: reviewHash(summary),
      verdict: "approve",
      by: "reviewer",
      at: "2026-11-27T00:00:00Z",
      detail: {},
    },
  ]);
  const approval = perCall(() =>
    unapprovedPlan(playbookPath, summary, records),
  );
  return [
    "| check | µs per call |",
    "| --- | ---: |",
    `| the playbook is its own file (\`lstat\`, and \`realpath\` of \`plan/\`) | ${names.toFixed(1)} |`,
    `| the latest review approves the plan as it is now (on a tick, a \`done\`, the archive) | ${approval.toFixed(2)} |`,
  ];
}
