import { recordKeyId, recordKeyOf } from "./record-path.ts";
import type { PlaybookRecord, RecordSet } from "./record.ts";

/**
 * Indexes `records` by key, keeping the newest of each (by `at`; of two with the same time, the later in the list).
 * Records whose `at` is not a date count as oldest.
 */
export function createRecordSet(records: readonly PlaybookRecord[]): RecordSet {
  const latest = new Map<string, PlaybookRecord>();
  for (const record of records) {
    const id = recordKeyId(recordKeyOf(record));
    const previous = latest.get(id);
    if (!previous || timeOf(record) >= timeOf(previous)) latest.set(id, record);
  }
  return {
    latest: (key) => latest.get(recordKeyId(key)) ?? null,
  };
}

/** Whether `record` judged the content that hashes to `hash` now; a record of other content is stale. */
export function isRecordCurrent(
  record: PlaybookRecord,
  hash: string | null,
): boolean {
  return hash !== null && record.contentHash === hash;
}

function timeOf(record: PlaybookRecord): number {
  const time = Date.parse(record.at);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}
