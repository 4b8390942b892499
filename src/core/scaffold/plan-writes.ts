import { createHash } from "node:crypto";

/**
 * What init does with one file:
 * - `create`: it does not exist;
 * - `update`: init wrote it, nobody changed it since, and the new version differs;
 * - `unchanged`: it already holds exactly this content;
 * - `keep-modified`: init wrote it and the user changed it since: left alone (with `force`, ours goes to `.new`);
 * - `conflict`: a file init did not write is in the way: left alone (with `force`, ours goes to `.new`);
 * - `remove`: init wrote it, nobody changed it, and it is no longer part of the install (toolstack or version);
 * - `keep-stale`: like `remove`, but the user changed it, so it stays.
 */
export type WriteAction =
  | "create"
  | "update"
  | "unchanged"
  | "keep-modified"
  | "conflict"
  | "remove"
  | "keep-stale";

export interface PlannedWrite {
  path: string;
  action: WriteAction;
  /** Where ours is written: the path itself, `<path>.new` (force), or null (nothing written). */
  writeTo: string | null;
  /** Our content (empty for `remove` and `keep-stale`). */
  content: string;
}

/** `sha256:<hex>` of a text, as the manifest stores it. */
export function contentHash(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/**
 * The write plan of init: each desired file compared with what is on disk and with the manifest of the last init,
 * so that nothing the user changed is overwritten and nothing init no longer ships is left behind untouched.
 */
export function planFileWrites(
  desired: readonly { path: string; content: string }[],
  current: (path: string) => string | null,
  manifest: Readonly<Record<string, string>>,
  force: boolean,
): PlannedWrite[] {
  const plan: PlannedWrite[] = desired.map(({ path, content }) => {
    const onDisk = current(path);
    const recorded = manifest[path];
    if (onDisk === null)
      return { path, action: "create", writeTo: path, content };
    if (onDisk === content)
      return { path, action: "unchanged", writeTo: null, content };
    if (recorded !== undefined && contentHash(onDisk) === recorded)
      return { path, action: "update", writeTo: path, content };
    return {
      path,
      action: recorded === undefined ? "conflict" : "keep-modified",
      writeTo: force ? `${path}.new` : null,
      content,
    };
  });
  const wanted = new Set(desired.map((d) => d.path));
  for (const [path, hash] of Object.entries(manifest)) {
    if (wanted.has(path) || path.endsWith(".new")) continue;
    const onDisk = current(path);
    if (onDisk === null) continue;
    plan.push({
      path,
      action: contentHash(onDisk) === hash ? "remove" : "keep-stale",
      writeTo: null,
      content: "",
    });
  }
  return plan;
}
