import { realpathSync } from "node:fs";
import { sha256Hex } from "../../adapters/sha256-text.ts";
import {
  readSnapshotIds,
  readBlob,
  readSnapshot,
} from "../../adapters/snapshot-store.ts";
import {
  readWorkFile,
  statWorkFile,
  writeWorkFile,
} from "../../adapters/work-files.ts";
import { PlaybookError } from "../../core/errors.ts";
import {
  resolveSnapshotId,
  type SnapshotManifest,
} from "../../core/snapshot/manifest.ts";
import {
  planRestore,
  type CurrentFile,
} from "../../core/snapshot/plan-restore.ts";
import { takeSnapshot, type SnapshotDeps } from "./take-snapshot.ts";

/** One snapshot in `playbook undo`'s list. */
export interface SnapshotSummary {
  id: string;
  at: string;
  /** The shell command it was taken before. */
  command: string;
  session: string | null;
  head: string | null;
  /** Files it holds content for. */
  files: number;
  /** Of those, the ones whose content on disk differs now: what `playbook undo <id>` would look at. */
  differ: number;
  /** Paths it holds no content for: named ones (over a cap) and those past the count cap. */
  skipped: number;
}

/** Every snapshot of the project, newest first, with how many of its files differ from the working tree now. */
export function readUndoSnapshots(projectDir: string): SnapshotSummary[] {
  const root = realpathSync(projectDir);
  const current = currentFiles(root);
  return readSnapshotIds(root)
    .reverse()
    .map((id) => readSnapshot(root, id))
    .filter((m): m is SnapshotManifest => m !== null)
    .map((m) => {
      let files = 0;
      let differ = 0;
      let skipped = 0;
      for (const file of m.files) {
        if ("skipped" in file) skipped++;
        if (!("blob" in file)) continue;
        files++;
        const now = current(file.path, file.size);
        if (!(now.kind === "file" && now.blob === file.blob)) differ++;
      }
      return {
        id: m.id,
        at: m.at,
        command: m.command,
        session: m.session,
        head: m.head,
        files,
        differ,
        skipped: skipped + (m.unlisted ?? 0),
      };
    });
}

export interface UndoResult {
  id: string;
  dryRun: boolean;
  /** The snapshot holding the work as it was just before this undo (to undo the undo), or null when none was due. */
  before: string | null;
  restored: { path: string; now: "missing" | "different" }[];
  /** Files already as the snapshot has them. */
  same: string[];
  left: { path: string; why: string }[];
  failed: { path: string; why: string }[];
}

/**
 * `playbook undo <id>`: writes back every file of the snapshot that differs from the working tree now, each by a
 * rename, and deletes nothing. First the work as it is now is kept as a snapshot of its own, so the undo can be
 * undone; where this process cannot write the store (the agent's sandbox), the newest snapshot must already hold it,
 * as the hook's does when the agent's shell runs `playbook undo`.
 *
 * @throws PlaybookError E_NOT_FOUND for an id no snapshot has (the message lists them), E_WRITE when the work as it
 * is now cannot be kept first.
 */
export async function runUndo(
  projectDir: string,
  wanted: string,
  options: { dryRun: boolean },
  deps: SnapshotDeps,
): Promise<UndoResult> {
  const root = realpathSync(projectDir);
  const ids = readSnapshotIds(root);
  if (ids.length === 0)
    throw new PlaybookError(
      "E_NOT_FOUND",
      "There is no snapshot in .claude/playbook/snapshots/ yet.",
      {
        hint: "Nothing to restore from playbook: it keeps one before each shell command that may change uncommitted work. `git stash list` shows what git keeps.",
      },
    );
  const found = resolveSnapshotId(ids, wanted);
  if ("problem" in found) {
    const listed = (
      found.matches.length > 0 ? found.matches : [...ids].reverse()
    ).slice(0, 10);
    throw new PlaybookError(
      "E_NOT_FOUND",
      `${found.problem === "ambiguous" ? `More than one snapshot starts with ${wanted}` : `No snapshot ${wanted}`}; ${found.problem === "ambiguous" ? "they are" : "the newest are"}: ${listed.join(", ")}.`,
      { hint: "Run `playbook undo` to list them with their commands." },
    );
  }
  const manifest = readSnapshot(root, found.id);
  if (manifest === null)
    throw new PlaybookError(
      "E_NOT_FOUND",
      `The snapshot ${found.id} cannot be read.`,
      {
        hint: "Pick another one from `playbook undo`.",
        location: {
          file: `.claude/playbook/snapshots/manifests/${found.id}.json`,
        },
      },
    );
  const current = currentFiles(root);
  const sizes = new Map(
    manifest.files.flatMap((f): [string, number][] =>
      "blob" in f ? [[f.path, f.size]] : [],
    ),
  );
  const plan = planRestore(manifest, (path) =>
    current(path, sizes.get(path) ?? -1),
  );
  const result: UndoResult = {
    id: manifest.id,
    dryRun: options.dryRun,
    before: null,
    restored: plan.restore.map(({ path, now }) => ({ path, now })),
    same: plan.same,
    left: plan.left,
    failed: [],
  };
  if (options.dryRun || plan.restore.length === 0) return result;
  result.before = await keepWorkFirst(root, manifest.id, deps);
  result.restored = [];
  for (const step of plan.restore) {
    const content = readBlob(root, step.blob);
    if (content === null) {
      result.failed.push({
        path: step.path,
        why: "its copy in the store is missing or damaged",
      });
      continue;
    }
    try {
      writeWorkFile(root, step.path, content, step.mode);
      result.restored.push({ path: step.path, now: step.now });
    } catch (error) {
      result.failed.push({
        path: step.path,
        why: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return result;
}

/** Keeps the work as it is now; the id of the snapshot that holds it, or null when there is none to keep. */
async function keepWorkFirst(
  root: string,
  id: string,
  deps: SnapshotDeps,
): Promise<string | null> {
  const command = `playbook undo ${id}`;
  const held = await takeSnapshot(
    { root, session: null, command, write: false },
    deps,
  );
  if (held.kind === "unchanged") return held.id;
  if (held.kind === "clean" || held.kind === "no-repository") return null;
  const kept = await takeSnapshot(
    { root, session: null, command, write: true },
    deps,
  );
  if (kept.kind === "taken" || kept.kind === "unchanged") return kept.id;
  if (kept.kind === "clean" || kept.kind === "no-repository") return null;
  throw new PlaybookError(
    "E_WRITE",
    `playbook undo could not keep the work as it is now before writing over it (${kept.why}); nothing was restored.`,
    {
      hint: "Commit or `git stash` the work first, or run `playbook undo` in your own terminal.",
      cause: held,
    },
  );
}

/**
 * The working tree's files as `planRestore` wants them, each read at most once. A file whose size is not the
 * snapshot's differs without being hashed.
 */
function currentFiles(
  root: string,
): (path: string, size: number) => CurrentFile {
  const hashed = new Map<string, CurrentFile>();
  return (path, size) => {
    const known = hashed.get(path);
    if (known !== undefined) return known;
    const stat = statWorkFile(root, path);
    if (stat.kind === "missing" || stat.kind === "folder")
      return { kind: stat.kind };
    if (stat.kind === "other") return { kind: "other" };
    if (stat.kind === "file" && Number(stat.stat.size) !== size)
      return { kind: "file", mode: stat.mode, blob: null };
    const read = readWorkFile(root, path, Number.MAX_SAFE_INTEGER);
    const now: CurrentFile =
      read.kind === "file"
        ? { kind: "file", mode: read.mode, blob: sha256Hex(read.bytes) }
        : read.kind === "link"
          ? {
              kind: "file",
              mode: "120000",
              blob: sha256Hex(Buffer.from(read.target, "utf8")),
            }
          : read.kind === "missing" || read.kind === "folder"
            ? { kind: read.kind }
            : { kind: "other" };
    hashed.set(path, now);
    return now;
  };
}
