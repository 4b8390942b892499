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
  const { randomBytes } = process.getBuiltinModule("node:crypto");
  return snapshotBeforeBash(request, {
    now: () => new Date(),
    timeLeft,
    suffix: () => randomBytes(2).toString("hex"),
  });
}
