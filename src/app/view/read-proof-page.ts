import { basename, join } from "node:path";
import { readBounded } from "../../adapters/read-bounded.ts";
import {
  LOG_DIR,
  readPostLoopLock,
  readUnfinishedArchive,
} from "../../adapters/runtime-files.ts";
import { readRecords } from "../../adapters/record-store.ts";
import { summarizePlaybook } from "../../core/cache/summary.ts";
import type { ProofPage } from "../../core/records/proof-html.ts";
import { toProofModel } from "../../core/records/proof-model.ts";
import {
  diffPlanOutlines,
  readPlanOutline,
  toPlanOutline,
} from "../../core/records/plan-outline.ts";
import { createRecordSet } from "../../core/records/record-set.ts";
import { runLint } from "../lint/lint.ts";
import { currentTreeFingerprint } from "../workspace/current-tree.ts";

/**
 * What the proof page shows of the project at `root` now: the active playbook's proof model (the one the pull
 * request's body and CI's job summary render), judged against the working tree as it is, the lock and an
 * unfinished archive. Reads only; writes nothing.
 */
export function readProofPage(root: string, now: Date): ProofPage {
  const lint = runLint(root);
  const playbook = lint.active?.playbook ?? null;
  const file = lint.active?.file ?? null;
  // The lock and the journal straight from their files: `runStatus` would lint the project a second time.
  const lock = readPostLoopLock(root);
  const unfinished = readUnfinishedArchive(root);
  const summary =
    playbook && file
      ? summarizePlaybook(
          playbook,
          lint.diagnostics.filter((d) => d.file === file),
        )
      : null;
  const records = createRecordSet(file ? readRecords(root, file) : []);
  const proof =
    summary && file
      ? toProofModel({
          path: file,
          playbook: summary,
          records,
          tree: currentTreeFingerprint(root),
        })
      : null;
  const review =
    file === null
      ? null
      : records.latest({ kind: "review", playbook: file, target: "playbook" });
  const approved = review ? readPlanOutline(review.detail) : null;
  return {
    project: basename(root),
    proof,
    lock: lock ? { playbook: lock.playbook ?? null, at: lock.at } : null,
    unfinishedArchive: unfinished
      ? { playbook: unfinished.playbook, branch: unfinished.branch }
      : null,
    at: now.toISOString(),
    planChanges:
      summary && approved
        ? diffPlanOutlines(approved, toPlanOutline(summary))
        : null,
    blocks: readRecentBlocks(root, 10),
  };
}

/** The last `count` refusals of the hook's block-reasons log (tab-separated, one per line), newest first. */
function readRecentBlocks(root: string, count: number): ProofPage["blocks"] {
  let text: string;
  try {
    text = readBounded(
      join(root, LOG_DIR, "block-reasons.log"),
      1024 * 1024,
    ).text;
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(-count)
    .reverse()
    .map((line) => {
      const [at = "", , tool = "", guard = "", ...reason] = line.split("\t");
      return { at, tool, guard, reason: reason.join("\t") };
    });
}
