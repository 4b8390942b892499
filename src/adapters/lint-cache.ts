import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { PARSER_VERSION } from "../core/cache/summary.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { cacheFileOf } from "./parse-cache.ts";

/**
 * The CLI's lint of one file (its parse and its diagnostics), from the cache when the file's text, the lint options
 * and the parser are the ones it was stored for, else computed and stored. Keyed by the text's hash, not its stat:
 * the text is read anyway, and hashing it costs about 1 ms for a 345 KB playbook against a second to parse it. A
 * process that may not write the cache (the agent's sandbox) still gets the computed answer.
 */
export function lintCached<T>(
  projectDir: string,
  relPath: string,
  text: string,
  options: string,
  lint: () => T,
): T {
  const cacheFile = cacheFileOf(projectDir, relPath, "lint");
  const key = {
    version: PARSER_VERSION,
    options,
    text: createHash("sha256").update(text).digest("hex"),
  };
  try {
    const entry = JSON.parse(readFileSync(cacheFile, "utf8")) as {
      key?: typeof key;
      result?: T;
    };
    if (
      entry.key?.version === key.version &&
      entry.key.options === key.options &&
      entry.key.text === key.text &&
      entry.result !== undefined
    )
      return entry.result;
  } catch {
    // A missing or corrupt entry is simply rebuilt.
  }
  const result = lint();
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeTextAtomic(cacheFile, JSON.stringify({ key, result }), {
      durable: false,
    });
  } catch {
    // Only a cache: a read-only checkout or the sandbox still gets a correct answer.
  }
  return result;
}
