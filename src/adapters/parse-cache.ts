import { lstatSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { documentNameProblem, documentNameRepair } from "./document-name.ts";
import { dirname, join } from "node:path";
import {
  matchCacheEntry,
  PARSER_VERSION,
  type CacheEntry,
  type CacheKey,
} from "../core/cache/summary.ts";
import type { DocumentKind, DocumentSummary } from "../core/model/summary.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { readBounded } from "./read-bounded.ts";
import {
  maxDocumentBytes,
  oversizeMessage,
} from "../core/paths/input-limits.ts";
import { parseEntry, serializeEntry } from "./summary-entry-file.ts";

export type Summarize = (
  kind: DocumentKind,
  text: string,
  file: string,
) => DocumentSummary;

export type CachedRead =
  { status: "missing" } | { status: "hit" | "miss"; summary: DocumentSummary };

export const CACHE_DIR = join(".claude", "playbook", "cache");

/**
 * Reads the summary of `relPath` (relative to `projectDir`) from the parse cache, or parses the file and refreshes
 * the cache. An entry is only trusted when path, kind, mtime, ctime, size and parser version all match and its
 * JSON is well-formed; anything else is rebuilt. Its fields are not checked one by one: only playbook's own processes
 * write the cache (docs/decisions.md). `summarize` is injected so the hook bundle can load the parser
 * lazily, only on a miss.
 */
export function readSummaryCached(
  projectDir: string,
  relPath: string,
  kind: DocumentKind,
  summarize: Summarize,
): CachedRead {
  const file = join(projectDir, relPath);
  let stats;
  try {
    stats = lstatSync(file);
  } catch {
    return { status: "missing" };
  }
  const misnamed = documentNameProblem(projectDir, relPath, stats);
  if (misnamed !== null)
    return {
      status: "miss",
      summary: brokenSummary(
        summarize(kind, "", relPath),
        relPath,
        "document-not-its-own",
        `${misnamed} Next: ${documentNameRepair(relPath)}.`,
      ),
    };
  if (!stats.isFile()) return { status: "missing" };
  const key: CacheKey = {
    path: relPath,
    kind,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    size: stats.size,
    config: configStamp(projectDir),
  };
  const cacheFile = cacheFileOf(projectDir, relPath);
  try {
    const hit = matchCacheEntry(readEntry(cacheFile), key);
    if (hit) return { status: "hit", summary: hit };
  } catch {
    // A missing or corrupt entry is simply rebuilt.
  }
  const limit = maxDocumentBytes(kind);
  const read = readBounded(file, limit);
  const summary = read.truncated
    ? oversizedSummary(summarize(kind, "", relPath), relPath, read.size, limit)
    : summarize(kind, read.text, relPath);
  writeEntry(cacheFile, { ...key, version: PARSER_VERSION, summary });
  return { status: "miss", summary };
}

/** A document too large to read: an empty one whose only diagnostic says so (a broken document). */
function oversizedSummary(
  empty: DocumentSummary,
  relPath: string,
  size: number,
  limit: number,
): DocumentSummary {
  return brokenSummary(
    empty,
    relPath,
    "document-too-large",
    oversizeMessage(relPath, size, limit),
  );
}

/** An empty document whose only diagnostic is `message` (a broken document: writes wait for its repair). */
function brokenSummary(
  empty: DocumentSummary,
  relPath: string,
  code: string,
  message: string,
): DocumentSummary {
  return {
    ...empty,
    diagnostics: [
      {
        code,
        severity: "error",
        message,
        file: relPath,
        line: 1,
        column: 1,
      },
    ],
  };
}

/**
 * Stores the summary of a file playbook itself just wrote (a session stamp), so the next hook call still hits the
 * cache. The entry is keyed by the file's stat taken before its content is read back and compared with `text`:
 * if anyone else wrote the file meanwhile, nothing is stored and the next call parses it.
 */
export function storeCacheEntry(
  projectDir: string,
  relPath: string,
  summary: DocumentSummary,
  text: string,
): void {
  const file = join(projectDir, relPath);
  try {
    const stats = statSync(file);
    if (readFileSync(file, "utf8") !== text) return;
    writeEntry(cacheFileOf(projectDir, relPath), {
      path: relPath,
      kind: summary.kind,
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.ctimeMs,
      size: stats.size,
      config: configStamp(projectDir),
      version: PARSER_VERSION,
      summary,
    });
  } catch {
    // Only a cache: the next call parses instead.
  }
}

/**
 * Drops every parse cache entry: called when a guard failed, so an entry someone edited into a shape the guards cannot
 * read blocks one call, not every call after it.
 */
export function forgetCachedSummaries(projectDir: string): void {
  try {
    rmSync(join(projectDir, CACHE_DIR), { recursive: true, force: true });
  } catch {
    // Nothing cached, or nothing this process may remove: the entries are rebuilt when their files change.
  }
}

/**
 * Entries this process already read, by the cache file's own stat: a hook call asks for the active playbook's summary
 * more than once (the workspace view, then the edit's before), and a 1,000-subtask summary is half a megabyte of
 * JSON (its subtasks are parsed only when asked for: summary-entry-file.ts). Any write of the entry (a rename) or any other change to it changes its stat, and the entry is read again.
 */
const readThisProcess = new Map<string, { stamp: string; entry: unknown }>();

function readEntry(cacheFile: string): unknown {
  const stats = statSync(cacheFile);
  const stamp = `${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.size}`;
  const known = readThisProcess.get(cacheFile);
  if (known?.stamp === stamp) return known.entry;
  const entry = parseEntry(readFileSync(cacheFile));
  readThisProcess.set(cacheFile, { stamp, entry });
  return entry;
}

/** The cache file of `relPath`, in `folder` under the cache (the summaries at its top). */
export function cacheFileOf(
  projectDir: string,
  relPath: string,
  folder = "",
): string {
  return join(
    projectDir,
    CACHE_DIR,
    folder,
    `${relPath.replace(/[\\/]/g, "__")}.json`,
  );
}

function writeEntry(cacheFile: string, entry: CacheEntry): void {
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeTextAtomic(cacheFile, serializeEntry(entry), { durable: false });
  } catch {
    // The cache only saves time: a read-only checkout still gets a correct answer.
  }
}

/** Identifies the version of `.claude/playbook.json`: diagnostics depend on its lint options. */
function configStamp(projectDir: string): string {
  try {
    const stats = statSync(join(projectDir, ".claude", "playbook.json"));
    return `${stats.mtimeMs}:${stats.ctimeMs}:${stats.size}`;
  } catch {
    return "none";
  }
}
