import { appendFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  hasRecordKey,
  recordFileName,
  recordFolderName,
  recordKeyOf,
  RECORD_HISTORY_FILE,
  RECORDS_DIR,
} from "../core/records/record-path.ts";
import { parseRecord } from "../core/records/record-schema.ts";
import type { PlaybookRecord, RecordKey } from "../core/records/record.ts";
import { writeTextAtomic } from "./atomic-write.ts";

/** A record file larger than this is not ours: it is skipped instead of slowing the hook down. */
const MAX_RECORD_BYTES = 256 * 1024;

/**
 * Stores `record` as the latest of its key, in `.claude/playbook/records/<slug>/<kind>.<target>[.<validation>].json`
 * (written atomically), and appends it as one line to `.claude/playbook/records/history.jsonl`.
 */
export function writeRecord(projectDir: string, record: PlaybookRecord): void {
  const folder = join(
    projectDir,
    RECORDS_DIR,
    recordFolderName(record.playbook),
  );
  mkdirSync(folder, { recursive: true });
  writeTextAtomic(
    join(folder, recordFileName(recordKeyOf(record))),
    `${JSON.stringify(record, null, 2)}\n`,
  );
  appendFileSync(
    join(projectDir, RECORD_HISTORY_FILE),
    `${JSON.stringify(record)}\n`,
  );
}

/**
 * The latest records of the playbook at repository path `playbookPath`: only those of `keys` when given (one file
 * read each, no directory scan: the hook path calls this), else every record file of the playbook. Missing,
 * malformed or misfiled records are skipped; this never throws.
 */
export function readRecords(
  projectDir: string,
  playbookPath: string,
  keys?: readonly RecordKey[],
): PlaybookRecord[] {
  const folder = join(projectDir, RECORDS_DIR, recordFolderName(playbookPath));
  if (keys) {
    const records: PlaybookRecord[] = [];
    for (const key of keys) {
      if (key.playbook !== playbookPath) continue;
      const record = readRecordFile(join(folder, recordFileName(key)));
      if (record && hasRecordKey(record, key)) records.push(record);
    }
    return records;
  }
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const records: PlaybookRecord[] = [];
  for (const name of names.sort()) {
    if (name.startsWith(".") || !name.endsWith(".json")) continue;
    const record = readRecordFile(join(folder, name));
    if (
      record &&
      record.playbook === playbookPath &&
      recordFileName(recordKeyOf(record)) === name
    )
      records.push(record);
  }
  return records;
}

function readRecordFile(path: string): PlaybookRecord | null {
  try {
    const text = readFileSync(path, "utf8");
    if (text.length > MAX_RECORD_BYTES) return null;
    return parseRecord(JSON.parse(text));
  } catch {
    return null;
  }
}
