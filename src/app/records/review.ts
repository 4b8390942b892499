import {
  toPlanOutline,
  type PlanOutline,
} from "../../core/records/plan-outline.ts";
import { writeRecord } from "../../adapters/record-store.ts";
import { setReviewed } from "../../core/edit/playbook-writers.ts";
import { failure } from "../../core/edit/text-edit.ts";
import { locationAt, PlaybookError } from "../../core/errors.ts";
import type { Diagnostic } from "../../core/model/diagnostic.ts";
import { reviewHash } from "../../core/records/content-hash.ts";
import type { PlaybookRecord } from "../../core/records/record.ts";
import { applyDocumentEdit } from "../workspace/apply-document-edit.ts";
import { identifyRecorder, type RecordDeps } from "./record-deps.ts";
import { resolvePlaybook } from "../workspace/resolve-playbook.ts";
import { runLint } from "../lint/lint.ts";

export interface ReviewOptions {
  action: "approve" | "reject";
  /** `--playbook`; state.md's `active` when absent. */
  playbook?: string | undefined;
  notes?: string | undefined;
}

export type ReviewOutcome =
  | {
      status: "recorded";
      playbook: string;
      record: PlaybookRecord;
      /** Whether `reviewed:` had to change in the playbook. */
      changed: boolean;
    }
  /** `approve` refused because `playbook lint` finds errors in the playbook; nothing was written. */
  | { status: "refused"; playbook: string; diagnostics: Diagnostic[] };

/**
 * `playbook review approve|reject` (docs/guards.md): records the reviewer's verdict on the plan as it is now (hashed with
 * `reviewHash`), then sets `reviewed: true|false` in the playbook. Only a person at a terminal or the reviewer
 * subagent (through the hook's grant) may run it. `approve` needs a playbook without lint errors and with a
 * `## context`.
 *
 * @throws PlaybookError E_DENIED for any other caller; see `resolvePlaybook` for the playbook errors.
 */
export function runReview(
  root: string,
  options: ReviewOptions,
  deps: RecordDeps,
): ReviewOutcome {
  const recorder = identifyRecorder("review", deps);
  const resolved = resolvePlaybook(root, options.playbook);
  const approve = options.action === "approve";
  if (approve) {
    const errors = runLint(root, [resolved.path]).diagnostics.filter(
      (d) => d.severity === "error" && d.file === resolved.path,
    );
    if (errors.length > 0)
      return {
        status: "refused",
        playbook: resolved.path,
        diagnostics: errors,
      };
    if (!resolved.summary.hasContext)
      throw new PlaybookError(
        "E_CONFIG",
        `${resolved.path} has no \`## context\`, so it cannot be approved.`,
        {
          hint: "Write the request's 5W1H and the user's confirmed answers under `## context`, then approve again.",
          location: locationAt(resolved.path),
        },
      );
  }
  const edited = setReviewed(resolved.text, approve);
  if (!edited.ok)
    throw new PlaybookError("E_WRITE", `${resolved.path}: ${edited.reason}`, {
      hint: `Fix ${resolved.path} as it says, then run the review again. Nothing was recorded.`,
      location: locationAt(resolved.path, edited.at),
    });
  const record: PlaybookRecord = {
    kind: "review",
    playbook: resolved.path,
    target: "playbook",
    contentHash: reviewHash(resolved.summary),
    verdict: options.action,
    by: recorder.by,
    at: deps.now().toISOString(),
    detail: {
      notes: options.notes ?? null,
      sessionId: recorder.grant?.sessionId ?? null,
      command: recorder.grant?.command ?? null,
      // What was approved, so a person can see what changed since (docs/view.md); left out when it would make the
      // record too large to read back (records are read up to 256 KB).
      plan: outlineWithin(toPlanOutline(resolved.summary), 128 * 1024),
    },
  };
  writeRecord(root, record);
  const { changed } = applyDocumentEdit(
    resolved.file,
    resolved.path,
    (current) =>
      current === resolved.text
        ? setReviewed(current, approve)
        : failure(
            "the playbook changed while it was being reviewed, so `reviewed` was not set; run the review again.",
          ),
  );
  return { status: "recorded", playbook: resolved.path, record, changed };
}

/** The outline, or null when its JSON is over `bytes`. */
function outlineWithin(
  outline: PlanOutline,
  bytes: number,
): PlanOutline | null {
  return Buffer.byteLength(JSON.stringify(outline)) <= bytes ? outline : null;
}
