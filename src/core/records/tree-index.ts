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
  readonly mode: string;
  readonly oid: string;
  readonly stat: IndexStat;
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

/** What an index `toTreeIndex` wrote holds. */
export interface ParsedTreeIndex {
  /** The files it holds by their stat, with their real blob ids. */
  files: Map<string, IndexedFile>;
  /** The paths listed always: a gitlink with its commit, any other with "". */
  always: Map<string, string>;
}

/**
 * What an index `toTreeIndex` wrote holds; null when the bytes are not such an index (another version, a different
 * hash, cut short). A file's stat is decoded only when asked for: a reading that changes nothing never needs it.
 */
export function parseTreeIndex(
  bytes: Uint8Array,
  oidBytes: 20 | 32,
): ParsedTreeIndex | null {
  if (bytes.length < 12 + oidBytes) return null;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (
    buffer.readUInt32BE(0) !== SIGNATURE ||
    buffer.readUInt32BE(4) !== VERSION
  )
    return null;
  const count = buffer.readUInt32BE(8);
  const fixed = STAT_BYTES + oidBytes + 2;
  const files = new Map<string, IndexedFile>();
  const always = new Map<string, string>();
  const last = STAT_BYTES + oidBytes - 1;
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + fixed > buffer.length - oidBytes) return null;
    const end = buffer.indexOf(0, at + fixed);
    if (end < 0 || end > buffer.length - oidBytes) return null;
    const path = buffer.toString("utf8", at + fixed, end);
    const mode = buffer.readUInt32BE(at + 24);
    const oid = buffer.toString("hex", at + STAT_BYTES, at + last);
    const final = buffer[at + last] ?? 0;
    // A zero change time marks a path listed always (or a gitlink): nothing to take by its stat.
    if (mode === 0o160000) always.set(path, oid + BYTE_HEX[final]);
    else if (buffer.readUInt32BE(at) === 0) always.set(path, "");
    else
      files.set(
        path,
        new HeldFile(
          MODES[mode] ?? mode.toString(8),
          oid + BYTE_HEX[final ^ 1],
          buffer,
          at,
        ),
      );
    at += entrySize(fixed, end - at - fixed);
  }
  return { files, always };
}

const MODES: Record<number, string> = {
  [0o100644]: "100644",
  [0o100755]: "100755",
  [0o120000]: "120000",
};

/** A file of a parsed index, whose stat is read from the index's bytes when asked for. */
class HeldFile implements IndexedFile {
  readonly mode: string;
  readonly oid: string;
  readonly #bytes: Buffer;
  readonly #at: number;

  constructor(mode: string, oid: string, bytes: Buffer, at: number) {
    this.mode = mode;
    this.oid = oid;
    this.#bytes = bytes;
    this.#at = at;
  }

  get stat(): IndexStat {
    const b = this.#bytes;
    const at = this.#at;
    return {
      ctimeS: b.readUInt32BE(at),
      ctimeN: b.readUInt32BE(at + 4),
      mtimeS: b.readUInt32BE(at + 8),
      mtimeN: b.readUInt32BE(at + 12),
      dev: b.readUInt32BE(at + 16),
      ino: b.readUInt32BE(at + 20),
      uid: b.readUInt32BE(at + 28),
      gid: b.readUInt32BE(at + 32),
      size: b.readUInt32BE(at + 36),
    };
  }
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

/** Hex digit values by character code (-1 for anything else), and each byte's two hex digits. */
const HEX_VALUE = /* @__PURE__ */ (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 16; i++) table["0123456789abcdef".charCodeAt(i)] = i;
  for (let i = 10; i < 16; i++) table["ABCDEF".charCodeAt(i - 10)] = i;
  return table;
})();
const BYTE_HEX = /* @__PURE__ */ Array.from({ length: 256 }, (_, i) =>
  i.toString(16).padStart(2, "0"),
);

function writeHex(
  bytes: Uint8Array,
  at: number,
  hex: string,
  length: number,
): void {
  for (let i = 0; i < length; i++) {
    const hi = HEX_VALUE[hex.charCodeAt(i * 2)] ?? -1;
    const lo = HEX_VALUE[hex.charCodeAt(i * 2 + 1)] ?? -1;
    bytes[at + i] = hi < 0 || lo < 0 ? 0 : (hi << 4) | lo;
  }
}
