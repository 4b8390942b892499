import type { UncommittedFiles } from "../adapters/uncommitted-files.ts";
import { startWorkListing } from "../app/snapshot/take-snapshot.ts";
import {
  snapshotBeforeBash,
  type BashSnapshotAnswer,
  type BashSnapshotRequest,
} from "../app/snapshot/snapshot-before-bash.ts";

/**
 * `dist/snapshot.cjs`: the copy of the uncommitted work the hook keeps before a shell command that may change files.
 * Loaded only for such a call, so a read-only one (`git status`) and the file tools never pay for it.
 */
export function snapshotForHook(
  request: BashSnapshotRequest,
  timeLeft: () => number,
): Promise<BashSnapshotAnswer> {
  return snapshotBeforeBash(request, {
    now: () => new Date(),
    timeLeft,
    // Loaded only when a snapshot is written: a clean tree or an unchanged one never needs it.
    suffix: () =>
      process.getBuiltinModule("node:crypto").randomBytes(2).toString("hex"),
  });
}

/** git's listing of the work, started before the shell command is read (see `startWorkListing`). */
export function startListingForHook(
  root: string,
  timeLeft: () => number,
): Promise<UncommittedFiles> {
  return startWorkListing(root, timeLeft);
}
