import type { ChunkCache } from "./chunk-tree.ts";

type Range = [start: number, end: number];

/**
 * What a clean parse of a yaml block leaves: its value, and the ranges of its top-level keys, of their values and of
 * the items of list values, as offsets in the block's text.
 */
export interface YamlBlockReading {
  data: unknown;
  keys: Record<string, Range>;
  fields: Record<string, Range>;
  items: Record<string, Range[]>;
}

const TAG = "yaml-block/1";

// A chunk of markdown never starts with NUL and this tag; if one did, the tree check and this one each reject the
// other's entry, which only costs a parse.
const keyOf = (text: string): string => `\u0000${TAG}\n${text}`;

/**
 * The reading of a yaml block stored for exactly this text in the document's chunk cache, or null. Parsing the two
 * yaml blocks of a playbook (meta and goal) with the yaml package cost the hook ~3 ms a call, most of it the
 * package's first run in the process; their text rarely changes. Whatever comes back is checked as the chunk trees
 * are: an entry of any other shape, or with a range outside the text, is parsed again.
 */
export function cachedYamlReading(
  cache: ChunkCache,
  text: string,
): YamlBlockReading | null {
  const stored = cache.get(keyOf(text));
  if (!Array.isArray(stored) || stored.length !== 5 || stored[0] !== TAG)
    return null;
  const [, data, keys, fields, items] = stored as unknown[];
  const length = text.length;
  if (
    !isPlainJson(data) ||
    !isRecordOf(keys, (v) => isRange(v, length)) ||
    !isRecordOf(fields, (v) => isRange(v, length)) ||
    !isRecordOf(
      items,
      (v) => Array.isArray(v) && v.every((r) => isRange(r, length)),
    )
  )
    return null;
  return {
    data,
    keys: keys as YamlBlockReading["keys"],
    fields: fields as YamlBlockReading["fields"],
    items: items as YamlBlockReading["items"],
  };
}

/** Stores `reading` for `text`, when a stored copy reads back the same (plain JSON values, no `__proto__` key). */
export function storeYamlReading(
  cache: ChunkCache,
  text: string,
  reading: YamlBlockReading,
): void {
  const plainKeys = (record: object) =>
    !Object.prototype.hasOwnProperty.call(record, "__proto__");
  if (
    !isPlainJson(reading.data) ||
    !plainKeys(reading.keys) ||
    !plainKeys(reading.fields) ||
    !plainKeys(reading.items)
  )
    return;
  cache.set(keyOf(text), [
    TAG,
    reading.data,
    reading.keys,
    reading.fields,
    reading.items,
  ]);
}

function isRange(value: unknown, length: number): value is Range {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    Number.isSafeInteger(value[0]) &&
    Number.isSafeInteger(value[1]) &&
    (value[0] as number) >= 0 &&
    (value[0] as number) <= (value[1] as number) &&
    (value[1] as number) <= length
  );
}

function isRecordOf(
  value: unknown,
  check: (entry: unknown) => boolean,
): value is Record<string, unknown> {
  return (
    isPlainObject(value) &&
    !Object.prototype.hasOwnProperty.call(value, "__proto__") &&
    Object.values(value).every(check)
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/** Strings, finite numbers, booleans, null, arrays and plain objects without a `__proto__` key: what JSON keeps. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean")
    return true;
  if (typeof value === "number")
    return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isPlainJson);
  return (
    isPlainObject(value) &&
    !Object.prototype.hasOwnProperty.call(value, "__proto__") &&
    Object.values(value).every(isPlainJson)
  );
}
