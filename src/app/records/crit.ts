import { writeRecord } from "../../adapters/record-store.ts";
import { readRecordBasis } from "./record-basis.ts";
import { phaseHash } from "../../core/records/content-hash.ts";
import type { PlaybookRecord } from "../../core/records/record.ts";
import { identifyRecorder, type RecordDeps } from "./record-deps.ts";
import { findPhaseOrThrow } from "./record-targets.ts";
import { resolvePlaybook } from "../workspace/resolve-playbook.ts";

export interface CritOptions {
  phase: string;
  verdict: "PASS" | "FAIL";
  evidence?: string | undefined;
  /** `--playbook`; state.md's `active` when absent. */
  playbook?: string | undefined;
}

/**
 * `playbook crit record <phase> PASS|FAIL` (docs/guards.md): records the critic's verdict on the phase as it is now
 * (hashed with `phaseHash`, so checking or editing its subtasks later makes it stale). Only a person at a terminal
 * or the critic subagent (through the hook's grant) may run it.
 *
 * @throws PlaybookError E_DENIED for any other caller, E_NOT_FOUND for an unknown phase.
 */
export function runCrit(
  root: string,
  options: CritOptions,
  deps: RecordDeps,
): { playbook: string; record: PlaybookRecord } {
  const recorder = identifyRecorder("crit", deps);
  const resolved = resolvePlaybook(root, options.playbook);
  findPhaseOrThrow(resolved, options.phase);
  const hash = phaseHash(resolved.summary, options.phase);
  // The summary maps the AST `findPhaseOrThrow` found the phase in.
  if (hash === null)
    throw new Error(`the summary of ${resolved.path} lacks ${options.phase}`);
  const record: PlaybookRecord = {
    kind: "critic",
    playbook: resolved.path,
    target: options.phase,
    contentHash: hash,
    verdict: options.verdict,
    by: recorder.by,
    at: deps.now().toISOString(),
    detail: {
      evidence: options.evidence ?? null,
      source: "cli",
      sessionId: recorder.grant?.sessionId ?? null,
      command: recorder.grant?.command ?? null,
      ...readRecordBasis(root, resolved.summary),
    },
  };
  writeRecord(root, record);
  return { playbook: resolved.path, record };
}
