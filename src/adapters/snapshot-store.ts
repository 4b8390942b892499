import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  existsSync,
} from "node:fs";
import { join } from "node:path";
import {
  isBlobName,
  isSnapshotId,
  parseManifest,
  type FileMode,
  type SnapshotManifest,
} from "../core/snapshot/manifest.ts";
import { blobPath } from "../core/snapshot/plan-restore.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { sha256Hex } from "./sha256-text.ts";

/**
 * The snapshot store (docs/trust-boundary.md, "Work the agent's spelling cannot destroy"): `blobs/` holds each
 * content once, named by its SHA-256; `manifests/<id>.json` says which paths held which content before one shell
 * command. It lies in the runtime folder, which the agent's shell and file tools cannot write: only the hook, and
 * `playbook undo` in a person's terminal, write it. Content is copied, never hard-linked: a hard link would share the
 * inode the agent can still write.
 */
export const SNAPSHOT_DIR = ".claude/playbook/snapshots";

const store = (root: string, ...parts: string[]) =>
  join(root, SNAPSHOT_DIR, ...parts);

export function hasBlob(root: string, blob: string): boolean {
  return existsSync(store(root, "blobs", blobPath(blob)));
}

/**
 * Stores content under its name, flushed to disk before it is renamed into place: later snapshots take a stored blob
 * as it is, so one a power cut left empty would be named by every snapshot after it (`readBlob` refuses one anyway).
 */
export function writeBlob(root: string, blob: string, bytes: Uint8Array): void {
  const file = store(root, "blobs", blobPath(blob));
  mkdirSync(join(file, ".."), { recursive: true });
  writeTextAtomic(file, bytes);
}

/** Marks a stored blob as just used, so the clean-up of another process keeps it (see `removeBlobsExcept`). */
export function touchBlob(root: string, blob: string, now: Date): void {
  try {
    utimesSync(store(root, "blobs", blobPath(blob)), now, now);
  } catch {
    // Gone or not ours to touch (a reading process in the sandbox): the clean-up's grace period covers it.
  }
}

/** A blob's content, or null when it is missing or no longer what its name says. */
export function readBlob(root: string, blob: string): Buffer | null {
  try {
    const bytes = readFileSync(store(root, "blobs", blobPath(blob)));
    return sha256Hex(bytes) === blob ? bytes : null;
  } catch {
    return null;
  }
}

/** The ids of the stored snapshots, oldest first. */
export function readSnapshotIds(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(store(root, "manifests"));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".json") && isSnapshotId(n.slice(0, -5)))
    .map((n) => n.slice(0, -5))
    .sort();
}

export function readSnapshot(
  root: string,
  id: string,
): SnapshotManifest | null {
  if (!isSnapshotId(id)) return null;
  try {
    const manifest = parseManifest(
      readFileSync(store(root, "manifests", `${id}.json`), "utf8"),
    );
    return manifest?.id === id ? manifest : null;
  } catch {
    return null;
  }
}

export function writeSnapshot(root: string, manifest: SnapshotManifest): void {
  mkdirSync(store(root, "manifests"), { recursive: true });
  writeTextAtomic(
    store(root, "manifests", `${manifest.id}.json`),
    `${JSON.stringify(manifest)}\n`,
  );
}

export function removeSnapshot(root: string, id: string): void {
  if (isSnapshotId(id))
    rmSync(store(root, "manifests", `${id}.json`), { force: true });
}

/**
 * Removes the blobs no remaining snapshot holds, except those written or used since `since`: a snapshot being taken
 * by another process may hold them before its manifest is written.
 */
export function removeBlobsExcept(
  root: string,
  keep: ReadonlySet<string>,
  since: Date,
): void {
  let folders: string[];
  try {
    folders = readdirSync(store(root, "blobs"));
  } catch {
    return;
  }
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(store(root, "blobs", folder));
    } catch {
      continue;
    }
    for (const name of names) {
      const blob = `${folder}${name}`;
      const file = store(root, "blobs", folder, name);
      if (!isBlobName(blob)) {
        // A temp file a crash left behind, once it is old enough not to be another process's write in progress.
        if (name.endsWith(".tmp") && isOlder(file, since))
          rmSync(file, { force: true });
        continue;
      }
      if (!keep.has(blob) && isOlder(file, since))
        rmSync(file, { force: true });
    }
  }
}

function isOlder(file: string, than: Date): boolean {
  try {
    return statSync(file).mtimeMs < than.getTime();
  } catch {
    return false;
  }
}

/** What the store remembers between snapshots: the files read last time by their stat, and its size. */
export interface StoreCache {
  /** Per path: the stat it had when read (see `statId`), and the blob and mode read. Only settled files. */
  files: Record<string, { stat: string; blob: string; mode: FileMode }>;
  /** Bytes of content in `blobs/`, as counted by the last clean-up and the writes since. */
  bytes: number;
}

const CACHE = "cache.json";

export function readStoreCache(root: string): StoreCache {
  try {
    const data = JSON.parse(readFileSync(store(root, CACHE), "utf8")) as {
      files?: unknown;
      bytes?: unknown;
    };
    const files =
      typeof data.files === "object" && data.files !== null
        ? (data.files as StoreCache["files"])
        : {};
    return {
      files,
      bytes: typeof data.bytes === "number" ? data.bytes : 0,
    };
  } catch {
    return { files: {}, bytes: 0 };
  }
}

export function writeStoreCache(root: string, cache: StoreCache): void {
  mkdirSync(store(root), { recursive: true });
  writeTextAtomic(store(root, CACHE), JSON.stringify(cache), {
    durable: false,
  });
}

/** The probe whose change time tells the file system's clock (adapters/file-stat.ts). */
export function clockProbe(root: string): string {
  return store(root, ".clock");
}
