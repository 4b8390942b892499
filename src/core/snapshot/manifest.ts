import { isRuntimePath } from "../paths/repo-path.ts";

/** The modes git stores a file with: a plain file, an executable, a symbolic link (its target is the content). */
export type FileMode = "100644" | "100755" | "120000";

/**
 * One path of a snapshot: its content (a blob of the store, by SHA-256), `deleted` (a tracked file missing from the
 * working tree), or `skipped` with why (over the size cap, not a file, out of room).
 */
export type SnapshotFile =
  | { path: string; blob: string; mode: FileMode; size: number }
  | { path: string; deleted: true }
  | { path: string; skipped: string; size?: number };

/** What one snapshot holds: the uncommitted work before one shell command (docs/trust-boundary.md). */
export interface SnapshotManifest {
  version: 1;
  /** `YYYYMMDD-HHMMSS-xxxx` (UTC): sorts by time. */
  id: string;
  at: string;
  /** Claude Code's session, or null from a person's terminal. */
  session: string | null;
  /** The shell command it was taken before (or `playbook undo <id>`), cut to `MAX_COMMAND_CHARS`. */
  command: string;
  /** The commit HEAD named, or null (no commit yet, or not readable). */
  head: string | null;
  /** Sorted by path. */
  files: SnapshotFile[];
  /** Paths past the cap of `maxFiles`, counted and not named (an untracked folder git does not ignore). */
  unlisted?: number;
}

export const MAX_COMMAND_CHARS = 2000;

/**
 * The bounds of the store under `.claude/playbook/snapshots/`: a file over `maxFileBytes` is named, not copied; a
 * snapshot lists at most `maxFiles` paths; past `keep` snapshots or `maxStoreBytes` of content the oldest go first.
 */
export interface SnapshotLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxStoreBytes: number;
  keep: number;
}

export const SNAPSHOT_LIMITS: SnapshotLimits = {
  maxFileBytes: 4 * 1024 * 1024,
  maxFiles: 5000,
  maxStoreBytes: 256 * 1024 * 1024,
  keep: 100,
};

const ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;
const BLOB = /^[0-9a-f]{64}$/;

/** A snapshot's id for a time and four hex digits that tell apart snapshots of the same second. */
export function toSnapshotId(at: Date, suffix: string): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, "")}-${iso.slice(11, 19).replace(/:/g, "")}-${suffix}`;
}

/**
 * The id for a snapshot taken at `at` that sorts after `newest`: ids sort by time, so one taken in the same second
 * as the newest, or after the clock went back, is stamped a second after it.
 */
export function toNextSnapshotId(
  at: Date,
  suffix: string,
  newest: string | undefined,
): string {
  const id = toSnapshotId(at, suffix);
  if (newest === undefined || id > newest) return id;
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(newest);
  if (!m) return id;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  return toSnapshotId(
    new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, (s ?? 0) + 1)),
    suffix,
  );
}

export function isSnapshotId(text: string): boolean {
  return ID.test(text);
}

export function isBlobName(text: string): boolean {
  return BLOB.test(text);
}

/**
 * Whether a path from a listing may be written back under the project: relative, with no `.` or `..` step, no NUL
 * or backslash, nothing inside a `.git` folder, and not playbook's runtime folder.
 */
export function isRestorablePath(path: string): boolean {
  if (
    path === "" ||
    path.startsWith("/") ||
    path.includes("\0") ||
    path.includes("\\")
  )
    return false;
  const steps = path.split("/");
  if (steps.some((s) => s === "" || s === "." || s === "..")) return false;
  // git never lists a path through a `.git` folder; a manifest that did must not write git's own files.
  if (steps.some((s) => s.toLowerCase() === ".git")) return false;
  return !isRuntimePath(path);
}

/** A manifest read back from the store, or null when it is not one this version wrote. */
export function parseManifest(text: string): SnapshotManifest | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  const m = data as Record<string, unknown>;
  if (
    m["version"] !== 1 ||
    typeof m["id"] !== "string" ||
    !isSnapshotId(m["id"]) ||
    typeof m["at"] !== "string" ||
    !(m["session"] === null || typeof m["session"] === "string") ||
    typeof m["command"] !== "string" ||
    !(m["head"] === null || typeof m["head"] === "string") ||
    !Array.isArray(m["files"])
  )
    return null;
  const files: SnapshotFile[] = [];
  for (const entry of m["files"] as unknown[]) {
    const file = parseFile(entry);
    if (file === null) return null;
    files.push(file);
  }
  const unlisted = m["unlisted"];
  return {
    version: 1,
    id: m["id"],
    at: m["at"],
    session: m["session"],
    command: m["command"],
    head: m["head"],
    files,
    ...(typeof unlisted === "number" && unlisted > 0 ? { unlisted } : {}),
  };
}

function parseFile(entry: unknown): SnapshotFile | null {
  if (typeof entry !== "object" || entry === null) return null;
  const f = entry as Record<string, unknown>;
  const path = f["path"];
  if (typeof path !== "string" || !isRestorablePath(path)) return null;
  if (f["deleted"] === true) return { path, deleted: true };
  if (typeof f["skipped"] === "string")
    return typeof f["size"] === "number"
      ? { path, skipped: f["skipped"], size: f["size"] }
      : { path, skipped: f["skipped"] };
  const { blob, mode, size } = f;
  if (
    typeof blob === "string" &&
    isBlobName(blob) &&
    (mode === "100644" || mode === "100755" || mode === "120000") &&
    typeof size === "number"
  )
    return { path, blob, mode, size };
  return null;
}

/** Whether two snapshots hold the same paths with the same content and state (their time and command aside). */
export function hasSameFiles(
  a: readonly SnapshotFile[],
  b: readonly SnapshotFile[],
): boolean {
  return (
    a.length === b.length &&
    a.every((file, i) => fileKey(file) === fileKey(b[i]))
  );
}

function fileKey(file: SnapshotFile | undefined): string {
  if (file === undefined) return "";
  if ("blob" in file) return `${file.path}\0${file.mode}\0${file.blob}`;
  if ("deleted" in file) return `${file.path}\0deleted`;
  return `${file.path}\0skipped\0${file.skipped}`;
}

/**
 * The snapshot `wanted` names among `ids`: the id itself, or a prefix only one id starts with. Otherwise why not, for
 * an error that lists the ids.
 */
export function resolveSnapshotId(
  ids: readonly string[],
  wanted: string,
): { id: string } | { problem: "unknown" | "ambiguous"; matches: string[] } {
  if (ids.includes(wanted)) return { id: wanted };
  const matches =
    wanted === "" ? [] : ids.filter((id) => id.startsWith(wanted));
  if (matches.length === 1 && matches[0] !== undefined)
    return { id: matches[0] };
  return matches.length === 0
    ? { problem: "unknown", matches }
    : { problem: "ambiguous", matches };
}
