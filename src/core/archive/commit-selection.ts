import { recordFolderName, RECORDS_DIR } from "../records/record-path.ts";
import type { StatusEntry } from "./git-status.ts";

/** What the archive's commit step commits, and the untracked files it leaves where they are (docs/archive.md). */
export interface CommitSelection {
  /** Tracked changes (modified, deleted, renamed), staged files, and the untracked files that belong to the work. */
  commit: StatusEntry[];
  /** Every other untracked file, by path, sorted. */
  leftAlone: string[];
}

/**
 * Splits `git status` into the work and the rest. An untracked file is the work when the agent wrote it with its
 * file tools while the playbook was active (`written`), or when it is the playbook's own bookkeeping: the playbook
 * itself, `state.md`, and the playbook's records (written only by trusted processes). Files git ignores are never
 * listed by the status the archive reads, so they are neither.
 */
export function selectCommit(
  entries: readonly StatusEntry[],
  playbook: string,
  written: ReadonlySet<string>,
): CommitSelection {
  const records = `${RECORDS_DIR}/${recordFolderName(playbook)}/`;
  const belongs = (path: string) =>
    written.has(path) ||
    path === playbook ||
    path === "state.md" ||
    path.startsWith(records);
  const commit: StatusEntry[] = [];
  const leftAlone: string[] = [];
  for (const entry of entries) {
    if (entry.index === "!") continue;
    if (entry.index === "?" && !belongs(entry.path)) leftAlone.push(entry.path);
    else commit.push(entry);
  }
  return { commit, leftAlone: leftAlone.sort() };
}

/** Every path a commit of `entries` changes: each path, and the old path of a rename. Sorted, each once. */
export function pathsOf(entries: readonly StatusEntry[]): string[] {
  return [
    ...new Set(entries.flatMap((e) => (e.from ? [e.from, e.path] : [e.path]))),
  ].sort();
}

/** Changes that could be lost when git rewrites the working tree: tracked and staged ones (not untracked files). */
export function trackedChanges(entries: readonly StatusEntry[]): StatusEntry[] {
  return entries.filter((e) => e.index !== "!" && e.index !== "?");
}
