/**
 * The stat fields git compares for an index entry, each as git stores it (32 bits, the times as seconds and
 * nanoseconds). A file whose stat git finds equal to these is one git does not list as modified.
 */
export interface IndexStat {
  ctimeS: number;
  ctimeN: number;
  mtimeS: number;
  mtimeN: number;
  dev: number;
  ino: number;
  uid: number;
  gid: number;
  size: number;
}

/**
 * One path of playbook's own index of the working tree (adapters/tree-fingerprint.ts): the stat of a file whose blob
 * id playbook read itself, or `stat: null` for a path git must list on every reading (a file written too recently to
 * be taken by its stat, a tracked path with no file, a sandbox's mount point). A gitlink keeps the commit the
 * repository's index names, and its stat is never compared.
 */
export interface TreeIndexEntry {
  path: string;
  /** `100644`, `100755`, `120000` or `160000`. */
  mode: string;
  /** Hex blob id (commit id for a gitlink); ignored for a path listed always. */
  oid: string;
  stat: IndexStat | null;
}

/** A file the index holds by its stat: the blob id playbook read when the file had that stat. */
export interface IndexedFile {
  mode: string;
  oid: string;
  stat: IndexStat;
}

const SIGNATURE = 0x44495243; // "DIRC"
const VERSION = 2;
/** The fixed part of an entry before the oid: ten 32-bit fields. */
const STAT_BYTES = 40;

/**
 * The bytes of an index (format version 2) that git reads with `GIT_INDEX_FILE`: entries sorted as git sorts them,
 * then the checksum `digest` computes (SHA-1 or SHA-256, the repository's). A file held by its stat keeps its blob id
 * with the last bit flipped: git compares a file's content with the id when only its times changed (after applying
 * the repository's filters and conversions, which playbook's own hashing does not), and no content hashes to the
 * flipped id, so that comparison always says "modified" and git's own view of content never decides anything.
 * A path listed always gets a size git will not find (1, with zero times) and no id.
 */
export function toTreeIndex(
  entries: readonly TreeIndexEntry[],
  oidBytes: 20 | 32,
  digest: (bytes: Uint8Array) => Uint8Array,
): Uint8Array {
  const encoder = new TextEncoder();
  const named = entries.map((entry) => ({
    entry,
    name: encoder.encode(entry.path),
  }));
  named.sort((a, b) => compareBytes(a.name, b.name));
  const fixed = STAT_BYTES + oidBytes + 2;
  let size = 12;
  for (const { name } of named) size += entrySize(fixed, name.length);
  const bytes = new Uint8Array(size + oidBytes);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, SIGNATURE);
  view.setUint32(4, VERSION);
  view.setUint32(8, named.length);
  let at = 12;
  for (const { entry, name } of named) {
    const { stat } = entry;
    const mode = parseInt(entry.mode, 8);
    if (stat !== null) {
      view.setUint32(at, stat.ctimeS);
      view.setUint32(at + 4, stat.ctimeN);
      view.setUint32(at + 8, stat.mtimeS);
      view.setUint32(at + 12, stat.mtimeN);
      view.setUint32(at + 16, stat.dev);
      view.setUint32(at + 20, stat.ino);
      view.setUint32(at + 28, stat.uid);
      view.setUint32(at + 32, stat.gid);
      view.setUint32(at + 36, stat.size);
    } else if (entry.mode !== "160000") view.setUint32(at + 36, 1);
    view.setUint32(at + 24, mode);
    if (stat !== null || entry.mode === "160000") {
      writeHex(bytes, at + STAT_BYTES, entry.oid, oidBytes);
      if (entry.mode !== "160000") bytes[at + STAT_BYTES + oidBytes - 1]! ^= 1;
    }
    view.setUint16(at + STAT_BYTES + oidBytes, Math.min(name.length, 0xfff));
    bytes.set(name, at + fixed);
    at += entrySize(fixed, name.length);
  }
  bytes.set(digest(bytes.subarray(0, at)).subarray(0, oidBytes), at);
  return bytes;
}

/**
 * The files an index `toTreeIndex` wrote holds by their stat, with their real blob ids; null when the bytes are not
 * such an index (another version, a different hash, cut short).
 */
export function parseTreeIndex(
  bytes: Uint8Array,
  oidBytes: 20 | 32,
): Map<string, IndexedFile> | null {
  if (bytes.length < 12 + oidBytes) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== SIGNATURE || view.getUint32(4) !== VERSION)
    return null;
  const count = view.getUint32(8);
  const fixed = STAT_BYTES + oidBytes + 2;
  const decoder = new TextDecoder();
  const files = new Map<string, IndexedFile>();
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + fixed > bytes.length - oidBytes) return null;
    const end = bytes.indexOf(0, at + fixed);
    if (end < 0 || end > bytes.length - oidBytes) return null;
    const ctimeS = view.getUint32(at);
    const mode = view.getUint32(at + 24);
    // A zero change time marks a path listed always (or a gitlink): nothing to take by its stat.
    if (ctimeS !== 0 && mode !== 0o160000) {
      const oid = bytes.slice(at + STAT_BYTES, at + STAT_BYTES + oidBytes);
      oid[oidBytes - 1]! ^= 1;
      files.set(decoder.decode(bytes.subarray(at + fixed, end)), {
        mode: mode.toString(8),
        oid: toHex(oid),
        stat: {
          ctimeS,
          ctimeN: view.getUint32(at + 4),
          mtimeS: view.getUint32(at + 8),
          mtimeN: view.getUint32(at + 12),
          dev: view.getUint32(at + 16),
          ino: view.getUint32(at + 20),
          uid: view.getUint32(at + 28),
          gid: view.getUint32(at + 32),
          size: view.getUint32(at + 36),
        },
      });
    }
    at += entrySize(fixed, end - at - fixed);
  }
  return files;
}

/**
 * Whether a path the repository's index names may stand in an index playbook writes and be read as a file of the
 * project: relative, with no empty, `.` or `..` step and no step that is git's own folder. The repository's index is
 * the agent's to write; a path like `../x` or `.git/config` is not code of the project.
 */
export function isProjectPath(path: string): boolean {
  if (path === "" || path.startsWith("/") || path.endsWith("/")) return false;
  for (const step of path.split("/"))
    if (
      step === "" ||
      step === "." ||
      step === ".." ||
      step.toLowerCase() === ".git"
    )
      return false;
  return !path.includes("\0");
}

/** An entry's size on disk: the fixed part, the name and 1-8 NULs, a multiple of 8. */
function entrySize(fixed: number, nameLength: number): number {
  return (fixed + nameLength + 8) & ~7;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function writeHex(
  bytes: Uint8Array,
  at: number,
  hex: string,
  length: number,
): void {
  for (let i = 0; i < length; i++)
    bytes[at + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16) || 0;
}

function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
