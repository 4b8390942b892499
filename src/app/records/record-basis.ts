import type { PlaybookSummary } from "../../core/model/summary.ts";
import { currentTreeFingerprint } from "../workspace/current-tree.ts";

/**
 * The basis a confirmation or a critic verdict records (docs/ci.md): the plan's review hash and the working tree's
 * fingerprint (null outside git or when git cannot read it). CI takes such a record only for the plan and the code of
 * the pull request.
 */
export function readRecordBasis(
  root: string,
  summary: Pick<PlaybookSummary, "hashes">,
): { plan: string; tree: string | null } {
  const tree = currentTreeFingerprint(root);
  return {
    plan: summary.hashes.review,
    tree: typeof tree === "string" ? tree : null,
  };
}
