import type { PlaybookSummary } from "../core/model/summary.ts";

/**
 * The bytes of a parse cache entry. A playbook's subtasks are most of its summary (2.7 MB of JSON for 5,000
 * subtasks, about 25 ms to read and parse in a fresh process), and most calls look at none of them or at one phase's.
 * So the file is one JSON object whose head comes first: a fixed-width `bodyAt` says where the head ends, the head
 * holds the entry without the subtasks and their hashes, and `segments` then holds each phase's subtasks and hashes as
 * one JSON value. A reader parses the head and each phase's segment only when that phase's subtasks are asked for.
 * The file stays plain JSON: an entry written as plain JSON is parsed whole.
 */

const PREFIX = '{"bodyAt":"';
const DIGITS = 10;
const MARK = ',"segments":[';

type Phase = PlaybookSummary["phases"][number];
type Subtasks = Phase["subtasks"];

interface Segment {
  subtasks: Subtasks;
  hashes: Record<string, string>;
}

interface EntryLike {
  summary: { kind: string };
}

/** The file's text for `entry`: a state summary, or anything without phases, is written as it is. */
export function serializeEntry(entry: EntryLike): string {
  if (entry.summary.kind !== "playbook") return JSON.stringify(entry);
  const summary = entry.summary as PlaybookSummary;
  const segments = summary.phases.map((phase) => {
    const hashes: Record<string, string> = {};
    for (const subtask of phase.subtasks) {
      const hash = summary.hashes.subtasks[subtask.id];
      if (hash !== undefined) hashes[subtask.id] = hash;
    }
    return JSON.stringify({ subtasks: phase.subtasks, hashes });
  });
  const head = {
    ...entry,
    summary: {
      ...summary,
      // Typed, so a field added to a phase's summary cannot be left out of the head.
      phases: summary.phases.map((phase): Omit<Phase, "subtasks"> => ({
        id: phase.id,
        name: phase.name,
        status: phase.status,
        dependsOn: phase.dependsOn,
        maxIterations: phase.maxIterations,
      })),
      hashes: { review: summary.hashes.review, phases: summary.hashes.phases },
    },
    segmentBytes: segments.map((segment) => Buffer.byteLength(segment)),
  };
  const inner = JSON.stringify(head).slice(1, -1);
  const start = `${PREFIX}${"0".repeat(DIGITS)}",`;
  const bodyAt = Buffer.byteLength(start) + Buffer.byteLength(inner);
  return `${PREFIX}${String(bodyAt).padStart(DIGITS, "0")}",${inner}${MARK}${segments.join(",")}]}`;
}

/**
 * The entry in `bytes`: a playbook's subtasks are parsed on first use, phase by phase; `hashes.subtasks` parses every
 * phase's. Throws when the bytes are not JSON (the caller rebuilds the entry).
 */
export function parseEntry(bytes: Buffer): unknown {
  const bodyAt = headEnd(bytes);
  if (bodyAt !== null) {
    const head = parseHead(bytes, bodyAt);
    if (head) return head;
  }
  // Whole: an entry written as plain JSON. One of this layout whose head did not fit is not used (it is rebuilt).
  const whole = JSON.parse(bytes.toString("utf8")) as unknown;
  return typeof whole === "object" && whole !== null && "segments" in whole
    ? null
    : whole;
}

function headEnd(bytes: Buffer): number | null {
  if (bytes.length < PREFIX.length + DIGITS) return null;
  if (bytes.toString("latin1", 0, PREFIX.length) !== PREFIX) return null;
  const digits = bytes.toString(
    "latin1",
    PREFIX.length,
    PREFIX.length + DIGITS,
  );
  if (!/^\d+$/.test(digits)) return null;
  const at = Number(digits);
  return bytes.toString("latin1", at, at + MARK.length) === MARK ? at : null;
}

function parseHead(bytes: Buffer, bodyAt: number): unknown {
  let head: unknown;
  try {
    head = JSON.parse(`${bytes.toString("utf8", 0, bodyAt)}}`);
  } catch {
    return null;
  }
  const entry = head as {
    summary?: { phases?: unknown; hashes?: unknown };
    segmentBytes?: unknown;
    bodyAt?: unknown;
  };
  const phases = entry.summary?.phases;
  const sizes = entry.segmentBytes;
  if (
    !Array.isArray(phases) ||
    !Array.isArray(sizes) ||
    phases.length !== sizes.length ||
    !sizes.every((n) => Number.isInteger(n) && (n as number) >= 0) ||
    typeof entry.summary?.hashes !== "object" ||
    entry.summary.hashes === null
  )
    return null;
  const starts: number[] = [];
  let at = bodyAt + MARK.length;
  for (const size of sizes as number[]) {
    starts.push(at);
    at += size + 1;
  }
  // The last segment ends where `]}` closes the file; anything else is not this layout.
  if (bytes.toString("latin1", at - 1, at + 1) !== "]}" && phases.length > 0)
    return null;
  const segments: (Segment | undefined)[] = [];
  const segment = (index: number): Segment => {
    const known = segments[index];
    if (known) return known;
    const start = starts[index] ?? 0;
    const parsed = JSON.parse(
      bytes.toString("utf8", start, start + ((sizes as number[])[index] ?? 0)),
    ) as Segment;
    segments[index] = parsed;
    return parsed;
  };
  phases.forEach((phase: object, index) => {
    lazyProperty(phase, "subtasks", () => segment(index).subtasks);
  });
  lazyProperty(entry.summary.hashes, "subtasks", () =>
    Object.assign(
      {},
      ...phases.map((_phase: unknown, index) => segment(index).hashes),
    ),
  );
  delete entry.segmentBytes;
  delete entry.bodyAt;
  return entry;
}

/** `object[key]` computed on first read, then kept as a plain value; enumerable, so spreads and JSON see it. */
function lazyProperty(object: object, key: string, compute: () => unknown) {
  const settle = (value: unknown) =>
    Object.defineProperty(object, key, {
      value,
      writable: true,
      configurable: true,
      enumerable: true,
    });
  Object.defineProperty(object, key, {
    configurable: true,
    enumerable: true,
    get: () => {
      const value = compute();
      settle(value);
      return value;
    },
    set: settle,
  });
}
