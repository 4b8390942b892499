import { mkdirSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { writeTextAtomic } from "../../adapters/atomic-write.ts";

/** What a step of init or uninstall changes on disk. */
export interface StepChanges {
  writes: readonly { path: string; text: string }[];
  removes: readonly string[];
}

/**
 * Carries out the steps in `dir`: each write atomic and flushed (temp file + rename), each removal followed by
 * removing the folders it left empty (never `dir` itself). Returns the paths written and removed.
 */
export function applySteps(
  dir: string,
  steps: readonly StepChanges[],
): { written: string[]; removed: string[] } {
  const written: string[] = [];
  const removed: string[] = [];
  for (const step of steps) {
    for (const { path, text } of step.writes) {
      const target = join(dir, path);
      mkdirSync(dirname(target), { recursive: true });
      writeTextAtomic(target, text);
      written.push(path);
    }
    for (const path of step.removes) {
      try {
        unlinkSync(join(dir, path));
        removed.push(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
      removeEmptyParents(dir, dirname(join(dir, path)));
    }
  }
  return { written, removed };
}

function removeEmptyParents(root: string, start: string): void {
  const top = resolve(root);
  let current = resolve(start);
  while (current !== top && current.startsWith(top + sep)) {
    try {
      if (readdirSync(current).length > 0) return;
      rmdirSync(current);
    } catch {
      return;
    }
    current = dirname(current);
  }
}
