import type { SnapshotLimits, SnapshotManifest } from "./manifest.ts";

/** Which snapshots go and which blobs stay, so that the store keeps to its limits. */
export interface RetentionPlan {
  /** Ids of the snapshots to remove, oldest first. */
  remove: string[];
  /** The blobs the remaining snapshots hold: every other blob may go. */
  keepBlobs: Set<string>;
  /** Bytes of content the remaining snapshots hold. */
  bytes: number;
}

/**
 * Keeps the newest snapshots: at most `keep` of them, and no more than fit in `maxStoreBytes` of distinct content
 * (a blob several snapshots share counts once). The newest always stays, whatever its size: the caps bound what
 * it copies as it is taken.
 */
export function planRetention(
  manifests: readonly SnapshotManifest[],
  limits: Pick<SnapshotLimits, "keep" | "maxStoreBytes">,
): RetentionPlan {
  const newestFirst = [...manifests].sort((a, b) =>
    a.id < b.id ? 1 : a.id > b.id ? -1 : 0,
  );
  const keepBlobs = new Set<string>();
  let bytes = 0;
  let kept = 0;
  for (const manifest of newestFirst) {
    if (kept >= Math.max(1, limits.keep)) break;
    const added = new Map<string, number>();
    for (const file of manifest.files)
      if ("blob" in file && !keepBlobs.has(file.blob))
        added.set(file.blob, file.size);
    const more = [...added.values()].reduce((sum, size) => sum + size, 0);
    if (kept > 0 && bytes + more > limits.maxStoreBytes) break;
    for (const blob of added.keys()) keepBlobs.add(blob);
    bytes += more;
    kept++;
  }
  return {
    remove: newestFirst
      .slice(kept)
      .map((m) => m.id)
      .reverse(),
    keepBlobs,
    bytes,
  };
}
