import { fileClock, isSettled, statId } from "../../adapters/file-stat.ts";
import { readHeadCommit } from "../../adapters/read-git-head.ts";
import { sha256Hex } from "../../adapters/sha256-text.ts";
import {
  clockProbe,
  hasBlob,
  readSnapshotIds,
  readSnapshot,
  readStoreCache,
  removeBlobsExcept,
  removeSnapshot,
  touchBlob,
  writeBlob,
  writeSnapshot,
  writeStoreCache,
  type StoreCache,
} from "../../adapters/snapshot-store.ts";
import {
  readUncommittedFiles,
  type UncommittedFiles,
} from "../../adapters/uncommitted-files.ts";
import {
  readWorkFile,
  statWorkFile,
  type WorkStat,
} from "../../adapters/work-files.ts";
import { isSandboxPlaceholder } from "../../core/paths/sandbox-placeholders.ts";
import {
  isBlobName,
  isRestorablePath,
  MAX_COMMAND_CHARS,
  toNextSnapshotId,
  hasSameFiles,
  SNAPSHOT_LIMITS,
  type SnapshotFile,
  type SnapshotLimits,
  type SnapshotManifest,
} from "../../core/snapshot/manifest.ts";
import { byPath } from "../../core/snapshot/uncommitted-listing.ts";
import { planRetention } from "../../core/snapshot/plan-retention.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";

export interface SnapshotRequest {
  /** The project, with links resolved. */
  root: string;
  session: string | null;
  /** What is about to run: the shell command, or `playbook undo <id>`. */
  command: string;
  /**
   * Whether this process may write the store: the hook and a person's terminal may; `playbook undo` in the agent's
   * sandbox may not, and then only checks that the newest snapshot already holds the work.
   */
  write: boolean;
  limits?: SnapshotLimits;
  /** git's listing of the work, when the caller started it earlier (`startWorkListing`). */
  listing?: Promise<UncommittedFiles>;
}

export interface SnapshotDeps {
  now: () => Date;
  /** Milliseconds left for the whole snapshot (the hook's deadline). */
  timeLeft: () => number;
  /** Four hex digits for the id. */
  suffix: () => string;
}

export type SnapshotOutcome =
  | {
      kind: "taken";
      id: string;
      /** Paths the snapshot holds content for. */
      files: number;
      /** Blobs it stored that the store did not have. */
      copied: number;
      skipped: { path: string; why: string }[];
      /** Of those, the ones the snapshot before it held or did not list: news worth telling. */
      newlySkipped: { path: string; why: string }[];
    }
  /** The newest snapshot already holds this state: none was written. */
  | { kind: "unchanged"; id: string }
  /** Nothing uncommitted: none was written. */
  | { kind: "clean" }
  | { kind: "no-repository" }
  | { kind: "failed"; why: string; outOfTime: boolean };

/** Below this, a snapshot is not started or not finished: the hook still has to answer. */
const RESERVE_MS = 150;

/**
 * Starts git's listing of the uncommitted work now, for a snapshot decided on later: the hook starts it before it
 * reads the shell command, so git walks the tree while the analysis and the guards run.
 */
export function startWorkListing(
  root: string,
  timeLeft: () => number,
): Promise<UncommittedFiles> {
  return readUncommittedFiles(root, timeLeft() - RESERVE_MS);
}

/**
 * Keeps a copy of the uncommitted work under `root`: tracked files that changed (staged or not) and untracked files
 * git does not ignore, each content once in the store, and a manifest naming them (docs/trust-boundary.md). A file
 * whose stat is the one the store remembers is not read again; one over the size cap, or past the count cap, is named
 * as skipped. Nothing is written when nothing is uncommitted or the newest snapshot holds the same. Then the oldest
 * snapshots beyond the store's limits go. Never throws: a failure, or the time running out, is the outcome `failed`.
 */
export async function takeSnapshot(
  request: SnapshotRequest,
  deps: SnapshotDeps,
): Promise<SnapshotOutcome> {
  try {
    return await snapshot(request, deps);
  } catch (error) {
    return {
      kind: "failed",
      why: error instanceof Error ? error.message : String(error),
      outOfTime: false,
    };
  }
}

async function snapshot(
  request: SnapshotRequest,
  deps: SnapshotDeps,
): Promise<SnapshotOutcome> {
  const { root } = request;
  const limits = request.limits ?? SNAPSHOT_LIMITS;
  const outOfTime = (): SnapshotOutcome => ({
    kind: "failed",
    why: "it ran out of time",
    outOfTime: true,
  });
  if (deps.timeLeft() < RESERVE_MS * 2) return outOfTime();
  const listed = await (request.listing ??
    readUncommittedFiles(root, deps.timeLeft() - RESERVE_MS));
  if (listed.kind === "no-repository") return listed;
  if (listed.kind === "failed")
    return {
      kind: "failed",
      why: listed.why,
      outOfTime: listed.why.endsWith("out of time"),
    };
  const paths = [
    ...listed.present.map((path) => ({ path, deleted: false })),
    ...listed.deleted.map((path) => ({ path, deleted: true })),
  ]
    .filter((p) => isRestorablePath(p.path))
    .sort((a, b) => byPath(a.path, b.path));
  if (paths.length === 0) return { kind: "clean" };

  const cache = readStoreCache(root);
  const clock = request.write ? fileClock(clockProbe(root)) : null;
  const now = deps.now();
  const files: SnapshotFile[] = [];
  const skipped: { path: string; why: string }[] = [];
  const next: StoreCache = { files: {}, bytes: cache.bytes };
  let copied = 0;
  let held = 0;
  let unlisted = 0;
  const skip = (path: string, why: string, size?: number) => {
    skipped.push({ path, why });
    files.push(
      size === undefined
        ? { path, skipped: why }
        : { path, skipped: why, size },
    );
  };
  for (const { path, deleted } of paths) {
    if (deps.timeLeft() < RESERVE_MS) return outOfTime();
    if (deleted) {
      files.push({ path, deleted: true });
      continue;
    }
    const found = statWorkFile(root, path);
    if (found.kind === "missing") {
      files.push({ path, deleted: true });
      continue;
    }
    // A folder is a submodule or a nested repository (git's own), a device a sandbox's mount point: no work.
    if (found.kind === "folder" || isPlaceholder(path, found)) continue;
    if (found.kind === "other") {
      skip(path, "not a file or link");
      continue;
    }
    if (held >= limits.maxFiles) {
      unlisted++;
      continue;
    }
    held++;
    const known = cache.files[path];
    if (
      known !== undefined &&
      known.stat === found.id &&
      known.mode === found.mode &&
      isBlobName(known.blob) &&
      hasBlob(root, known.blob)
    ) {
      if (request.write) touchBlob(root, known.blob, now);
      files.push({
        path,
        blob: known.blob,
        mode: known.mode,
        size: Number(found.stat.size),
      });
      next.files[path] = known;
      continue;
    }
    const read = readWorkFile(root, path, limits.maxFileBytes);
    if (read.kind === "missing") {
      files.push({ path, deleted: true });
      continue;
    }
    if (read.kind === "too-big") {
      skip(
        path,
        `over the ${formatBytes(limits.maxFileBytes)} cap for one file`,
        read.size,
      );
      continue;
    }
    if (read.kind === "folder" || read.kind === "other") {
      skip(path, "it changed into something else while it was read");
      continue;
    }
    const bytes =
      read.kind === "link" ? Buffer.from(read.target, "utf8") : read.bytes;
    const mode = read.kind === "link" ? "120000" : read.mode;
    const blob = sha256Hex(bytes);
    if (hasBlob(root, blob)) {
      if (request.write) touchBlob(root, blob, now);
    } else if (!request.write)
      return {
        kind: "failed",
        why: `\`${path}\` as it is now is in no snapshot`,
        outOfTime: false,
      };
    else {
      if (
        next.bytes + bytes.length > limits.maxStoreBytes &&
        !makeRoom(root, limits, next, now, bytes.length)
      ) {
        skip(
          path,
          `no room: the store is at its ${formatBytes(limits.maxStoreBytes)} cap`,
          bytes.length,
        );
        continue;
      }
      writeBlob(root, blob, bytes);
      next.bytes += bytes.length;
      copied++;
    }
    files.push({ path, blob, mode, size: bytes.length });
    if (isSettled(read.stat, clock))
      next.files[path] = { stat: statId(read.stat), blob, mode };
  }
  if (unlisted > 0)
    skipped.push({
      path: `${unlisted} more files`,
      why: `past the cap of ${limits.maxFiles} files in one snapshot`,
    });
  if (files.length === 0) return { kind: "clean" };

  const ids = readSnapshotIds(root);
  const newestId = ids.at(-1);
  const newest = newestId === undefined ? null : readSnapshot(root, newestId);
  const head = readHeadCommit(root);
  if (
    newest !== null &&
    newest.head === head &&
    (newest.unlisted ?? 0) === unlisted &&
    hasSameFiles(newest.files, files)
  ) {
    if (request.write) writeStoreCache(root, next);
    return { kind: "unchanged", id: newest.id };
  }
  if (!request.write)
    return {
      kind: "failed",
      why: "the newest snapshot does not hold the work as it is now",
      outOfTime: false,
    };
  const id = toNextSnapshotId(now, deps.suffix(), newestId);
  writeSnapshot(root, {
    version: 1,
    id,
    at: toIsoTime(now),
    session: request.session,
    command: request.command.slice(0, MAX_COMMAND_CHARS),
    head,
    files,
    ...(unlisted > 0 ? { unlisted } : {}),
  });
  if (ids.length + 1 > limits.keep || next.bytes > limits.maxStoreBytes)
    makeRoom(root, limits, next, now, 0);
  writeStoreCache(root, next);
  return {
    kind: "taken",
    id,
    files: files.filter((f) => "blob" in f).length,
    copied,
    skipped,
    newlySkipped: skipped.filter((s) =>
      s.path.endsWith(" more files")
        ? (newest?.unlisted ?? 0) === 0
        : !newest?.files.some((f) => f.path === s.path && "skipped" in f),
    ),
  };
}

/** How long a blob no snapshot names is kept: a snapshot being taken elsewhere may name it once its manifest is out. */
const GRACE_MS = 60_000;

/**
 * Removes the oldest snapshots beyond the limits, and the blobs none of the rest holds, leaving room for `incoming`
 * more bytes where it can. Whether there is room now.
 */
function makeRoom(
  root: string,
  limits: SnapshotLimits,
  cache: StoreCache,
  now: Date,
  incoming: number,
): boolean {
  const manifests = readSnapshotIds(root)
    .map((id) => readSnapshot(root, id))
    .filter((m): m is SnapshotManifest => m !== null);
  const plan = planRetention(manifests, {
    keep: limits.keep,
    maxStoreBytes: Math.max(0, limits.maxStoreBytes - incoming),
  });
  for (const id of plan.remove) removeSnapshot(root, id);
  removeBlobsExcept(root, plan.keepBlobs, new Date(now.getTime() - GRACE_MS));
  for (const path of Object.keys(cache.files))
    if (!plan.keepBlobs.has(cache.files[path]?.blob ?? ""))
      delete cache.files[path];
  cache.bytes = plan.bytes;
  return plan.bytes + incoming <= limits.maxStoreBytes;
}

function isPlaceholder(path: string, found: WorkStat): boolean {
  if (found.kind === "other")
    return (
      found.characterDevice && isSandboxPlaceholder(path, "character-device")
    );
  return (
    found.kind === "file" &&
    found.stat.size === 0n &&
    isSandboxPlaceholder(path, "empty-file")
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`
    : bytes >= 1024
      ? `${Math.round(bytes / 102.4) / 10} KiB`
      : `${bytes} bytes`;
}
