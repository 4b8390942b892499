import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Every file under `dir` (relative), for before/after comparisons. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/**
 * A file of `.claude/playbook/` that proves work or holds it back: records, grants, locks and the journal. Logs,
 * caches, job output, session reads, the snapshots of uncommitted work and the final proof's checkout are playbook's
 * own bookkeeping.
 */
export function isTrustState(file: string): boolean {
  return (
    !/^(?:logs|cache|jobs|sessions|snapshots|reprove)\//.test(file) &&
    !file.endsWith(".v8cache")
  );
}
