import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { PARSER_VERSION } from "../core/cache/summary.ts";
import type { ChunkCache } from "../core/parse/chunk-tree.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { cacheFileOf } from "./parse-cache.ts";

/**
 * The CLI's lint of one file (its parse and its diagnostics), from the cache when the file's text, the lint options
 * and the parser are the ones it was stored for, else computed and stored. Keyed by the text's hash, not its stat:
 * the text is read anyway, and hashing it costs about 1 ms for a 345 KB playbook against a second to parse it. A
 * process that may not write the cache (the agent's sandbox) still gets the computed answer. A miss parses with the
 * file's chunk cache (`openChunkCache`), so after an edit only the chunks it touched are parsed again.
 */
export function lintCached<T>(
  projectDir: string,
  relPath: string,
  text: string,
  options: string,
  lint: (chunks: ChunkCache) => T,
): T {
  const cacheFile = cacheFileOf(projectDir, relPath, "lint");
  // The key on the first line, the result on the second: a stale entry is told apart without parsing a result that
  // is a megabyte of JSON for a big playbook.
  const key = JSON.stringify({
    version: PARSER_VERSION,
    options,
    text: sha256(text),
  });
  try {
    const entry = readFileSync(cacheFile, "utf8");
    const newline = entry.indexOf("\n");
    if (newline !== -1 && entry.slice(0, newline) === key) {
      const result = JSON.parse(entry.slice(newline + 1)) as T | null;
      if (result !== null) return result;
    }
  } catch {
    // A missing or corrupt entry is simply rebuilt.
  }
  const chunks = openChunkCache(projectDir, relPath);
  const result = lint(chunks);
  chunks.save();
  writeQuietly(cacheFile, `${key}\n${JSON.stringify(result)}`);
  return result;
}

export interface StoredChunks extends ChunkCache {
  /** Writes the chunks this parse used, when they differ from the stored ones. */
  save(): void;
}

/**
 * The chunk trees of one document's last parse, in `.claude/playbook/cache/chunks/`, each under its text. The file
 * is the parser build and the format on its first line, then one line per chunk: the length of the key, a space, the
 * key (the chunk's text as a JSON string), a space and the tree as JSON. Keyed by the text itself, not a digest of
 * it: hashing cost the hook loading `node:crypto` (about 3 ms a call), and no two texts share a key. It is read on
 * the first lookup; a file of another parser build or format counts as empty, a line that does not parse as missing,
 * and the parser checks every tree it gets before using it. A tree is parsed from its line only when its
 * chunk is looked up, and a kept line is written back as it was read: the trees do not outlive their chunk's parse.
 * `save` keeps only the chunks of this parse, so the file stays the size of the document.
 */
export function openChunkCache(
  projectDir: string,
  relPath: string,
): StoredChunks {
  const file = cacheFileOf(projectDir, relPath, "chunks");
  let stored: Map<string, string> | undefined;
  const used = new Map<string, string>();
  let changed = false;
  const load = (): Map<string, string> => {
    if (stored) return stored;
    stored = new Map();
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      // Missing or unreadable: every chunk is parsed, and the file rewritten.
    }
    const lines = text.split("\n");
    if (lines[0] !== CHUNK_FILE_HEAD) return stored;
    for (let i = 1; i < lines.length; i++) {
      const entry = readChunkLine(lines[i] ?? "");
      if (entry) stored.set(entry[0], entry[1]);
    }
    return stored;
  };
  return {
    get(text) {
      const key = JSON.stringify(text);
      const line = load().get(key);
      if (line === undefined) return undefined;
      try {
        const value: unknown = JSON.parse(line);
        used.set(key, line);
        return value;
      } catch {
        return undefined;
      }
    },
    set(text, value) {
      used.set(JSON.stringify(text), JSON.stringify(value));
      changed = true;
    },
    save() {
      if (!changed && used.size === load().size) return;
      let out = CHUNK_FILE_HEAD;
      for (const [key, line] of used) out += `\n${key.length} ${key} ${line}`;
      writeQuietly(file, `${out}\n`);
    },
  };
}

const CHUNK_FILE_HEAD = JSON.stringify([PARSER_VERSION, "text-keys"]);

/** `[key, tree]` of one line of a chunk file, or null for a line that is not one. */
function readChunkLine(line: string): [string, string] | null {
  const space = line.indexOf(" ");
  const length = space > 0 ? Number(line.slice(0, space)) : NaN;
  const end = space + 1 + length;
  if (!Number.isSafeInteger(length) || line.charCodeAt(end) !== 32) return null;
  return [line.slice(space + 1, end), line.slice(end + 1)];
}

/** The SHA-256 of `text`, loading `node:crypto` only when a lint needs it: the hook's parses never do. */
function sha256(text: string): string {
  return process.getBuiltinModule("node:crypto").hash("sha256", text, "hex");
}

function writeQuietly(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeTextAtomic(file, text, { durable: false });
  } catch {
    // Only a cache: a read-only checkout or the sandbox still gets a correct answer.
  }
}
