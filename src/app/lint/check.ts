import { readRecords } from "../../adapters/record-store.ts";
import { summarizePlaybook } from "../../core/cache/summary.ts";
import {
  sortDiagnostics,
  type Diagnostic,
} from "../../core/model/diagnostic.ts";
import { createRecordSet } from "../../core/records/record-set.ts";
import { findUnbackedClaims } from "../../core/records/unbacked-claims.ts";
import { currentTreeFingerprint } from "../workspace/current-tree.ts";
import { runLint } from "./lint.ts";
import { findUnboundRecords } from "../../core/records/pull-request-binding.ts";

export interface CheckReport {
  files: string[];
  /** Playbooks whose claims were compared with the records. */
  playbooks: string[];
  diagnostics: Diagnostic[];
}

/**
 * `playbook check` (CI): lint state.md and every playbook, then compare each playbook's claims (`reviewed: true`,
 * checked subtasks, `done` phases) with the records committed beside it under `.claude/playbook/records/`, and the
 * evidence with the working tree it was recorded for. With `pullRequest` (CI's `--pr`), confirmations and critic
 * verdicts must also bind to the plan and the tree checked (docs/ci.md).
 */
export function runCheck(
  root: string,
  options: { pullRequest?: boolean } = {},
): CheckReport {
  const lint = runLint(root);
  const diagnostics = [...lint.diagnostics];
  const tree = lint.playbooks.length > 0 ? currentTreeFingerprint(root) : null;
  const playbooks = lint.playbooks.map(({ file, playbook }) => {
    const summary = summarizePlaybook(playbook, []);
    const records = createRecordSet(readRecords(root, file));
    diagnostics.push(
      ...findUnbackedClaims(file, playbook, summary, records, tree),
    );
    // In a pull request, what CI cannot re-run counts only for the plan and the code it is merged with.
    if (options.pullRequest === true && typeof tree === "string")
      diagnostics.push(
        ...findUnboundRecords(file, playbook, summary, records, {
          plan: summary.hashes.review,
          tree,
        }),
      );
    return file;
  });
  return {
    files: lint.files,
    playbooks,
    diagnostics: sortDiagnostics(diagnostics),
  };
}
