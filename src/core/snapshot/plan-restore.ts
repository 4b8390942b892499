import { isPlaybookPath, isStatePath } from "../paths/repo-path.ts";
import type { FileMode, SnapshotFile, SnapshotManifest } from "./manifest.ts";

/**
 * A path of the working tree now, as far as restoring needs to know it. `blob` is the SHA-256 of a file's content
 * (or of a link's target), or null when its size already tells it differs from the snapshot's.
 */
export type CurrentFile =
  | { kind: "missing" }
  | { kind: "file"; mode: FileMode; blob: string | null }
  | { kind: "folder" }
  | { kind: "other" };

export interface RestoreStep {
  path: string;
  blob: string;
  mode: FileMode;
  size: number;
  /** What is there now: nothing, or other content. */
  now: "missing" | "different";
}

/** What `playbook undo <id>` does: files to write back, files already as they were, and paths it leaves alone. */
export interface RestorePlan {
  restore: RestoreStep[];
  same: string[];
  left: { path: string; why: string }[];
}

/**
 * Plans an undo: every file of the snapshot that differs from the working tree now is written back. Nothing is
 * deleted, so a file created since, or one the snapshot saw deleted, stays. `state.md` and playbooks are left to the
 * Edit tool, whose checks a restore from the shell would go around.
 */
export function planRestore(
  manifest: SnapshotManifest,
  current: (path: string) => CurrentFile,
): RestorePlan {
  const plan: RestorePlan = { restore: [], same: [], left: [] };
  for (const file of manifest.files) placeFile(plan, file, current(file.path));
  return plan;
}

function placeFile(plan: RestorePlan, file: SnapshotFile, now: CurrentFile) {
  const { path } = file;
  if ("deleted" in file) {
    if (now.kind === "missing") plan.same.push(path);
    else
      plan.left.push({
        path,
        why: "it was deleted then; undo deletes no file",
      });
    return;
  }
  if ("skipped" in file) {
    plan.left.push({ path, why: `not in the snapshot: ${file.skipped}` });
    return;
  }
  if (now.kind === "file" && now.blob === file.blob && now.mode === file.mode) {
    plan.same.push(path);
    return;
  }
  if (isStatePath(path) || isPlaybookPath(path)) {
    plan.left.push({
      path,
      why: `playbook's own document: change it with the Edit tool (its content then is in .claude/playbook/snapshots/blobs/${blobPath(file.blob)})`,
    });
    return;
  }
  if (now.kind === "folder" || now.kind === "other") {
    plan.left.push({
      path,
      why: now.kind === "folder" ? "a folder is there now" : "not a file now",
    });
    return;
  }
  plan.restore.push({
    path,
    blob: file.blob,
    mode: file.mode,
    size: file.size,
    now: now.kind === "missing" ? "missing" : "different",
  });
}

/** Where a blob lies below the store's `blobs/` folder: the first two hex digits name a folder. */
export function blobPath(blob: string): string {
  return `${blob.slice(0, 2)}/${blob.slice(2)}`;
}
