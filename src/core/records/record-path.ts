import type { PlaybookRecord, RecordKey } from "./record.ts";

/** Where records live, relative to the project root. */
export const RECORDS_DIR = ".claude/playbook/records";

/** One line per record ever written, oldest first. */
export const RECORD_HISTORY_FILE = `${RECORDS_DIR}/history.jsonl`;

/** One-time permissions the hook writes for `playbook review` and `playbook crit record`. */
export const GRANTS_DIR = ".claude/playbook/grants";

/** The key a record is filed under. */
export function recordKeyOf(record: PlaybookRecord): RecordKey {
  const key: RecordKey = {
    kind: record.kind,
    playbook: record.playbook,
    target: record.target,
  };
  if (record.validation !== undefined) key.validation = record.validation;
  return key;
}

/** Whether `record` is filed under exactly `key`. */
export function hasRecordKey(record: PlaybookRecord, key: RecordKey): boolean {
  return (
    record.kind === key.kind &&
    record.playbook === key.playbook &&
    record.target === key.target &&
    record.validation === key.validation
  );
}

/** A string that identifies `key`, for maps. */
export function recordKeyId(key: RecordKey): string {
  return [key.kind, key.playbook, key.target, key.validation ?? ""].join(
    "\u0000",
  );
}

/**
 * The folder of one playbook's records, under {@link RECORDS_DIR}: its repository path with `/` replaced by `__`
 * (`plan/playbook-login.md` -> `plan__playbook-login.md`).
 */
export function recordFolderName(playbook: string): string {
  return safeName(playbook.replace(/\\/g, "/").replace(/\//g, "__"));
}

/** `<kind>.<target>[.<validation>].json`, e.g. `evidence.p1.1.technical.json`. */
export function recordFileName(key: RecordKey): string {
  const parts = [key.kind, safeName(key.target)];
  if (key.validation !== undefined) parts.push(key.validation);
  return `${parts.join(".")}.json`;
}

/**
 * Keeps ids readable and file names safe: letters, digits, `_`, `-` and inner dots stay, anything else (a `/`, a
 * space, a leading dot) becomes `%XX` of its UTF-8 bytes.
 */
function safeName(text: string): string {
  const encoded = [...text]
    .map((ch) =>
      /^[A-Za-z0-9_.-]$/.test(ch)
        ? ch
        : [...new TextEncoder().encode(ch)]
            .map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`)
            .join(""),
    )
    .join("");
  return encoded.startsWith(".") ? `%2E${encoded.slice(1)}` : encoded || "%00";
}
