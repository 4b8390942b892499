import { SANDBOX_MOUNT_POINTS } from "../paths/sandbox-placeholders.ts";

export const EXCLUDE_BEGIN =
  "# playbook:begin Claude Code's sandbox mount points, kept out of `git add -A` (`playbook init` keeps this block)";
export const EXCLUDE_END = "# playbook:end";

/**
 * The `.git/info/exclude` lines that keep the sandbox's mount points out of `git add -A`: one anchored pattern per
 * name in `missing` (those the project does not have as real files), `prefix` being the project's folder inside the
 * repository (`git rev-parse --show-prefix`). A name that is usually a folder is taken back out as a folder
 * (`!/.vscode/`): the mount point is a device, and a real folder made later must not vanish from `git add -A`.
 */
export function planExcludeLines(
  prefix: string,
  missing: ReadonlySet<string>,
): string[] {
  const folder = prefix.replace(/^\/+|\/+$/g, "");
  const base = folder === "" ? "/" : `/${escapePattern(folder)}/`;
  const lines: string[] = [];
  for (const { path, folder } of SANDBOX_MOUNT_POINTS) {
    if (!missing.has(path)) continue;
    lines.push(`${base}${escapePattern(path)}`);
    if (folder) lines.push(`!${base}${escapePattern(path)}/`);
  }
  return lines;
}

/** A path as a gitignore pattern that matches only itself: `[`, `*`, `?`, `!`, `#`, `\` and blanks escaped. */
function escapePattern(path: string): string {
  return path.replace(/[[\]*?!#\\ ]/g, (c) => `\\${c}`);
}

/**
 * `.git/info/exclude` with playbook's block set to `lines`, written after the rest (an old block is taken out); none when
 * `lines` is empty. Everything outside the markers stays as it was.
 */
export function upsertExcludeBlock(
  text: string | null,
  lines: readonly string[],
): string {
  const kept = removeExcludeBlock(text ?? "");
  if (lines.length === 0) return kept;
  const eol = kept.includes("\r\n") ? "\r\n" : "\n";
  const base = kept === "" || kept.endsWith("\n") ? kept : `${kept}${eol}`;
  return `${base}${[EXCLUDE_BEGIN, ...lines, EXCLUDE_END].join(eol)}${eol}`;
}

/** `.git/info/exclude` without playbook's block (from its begin marker to its end marker, or to the end). */
export function removeExcludeBlock(text: string): string {
  const lines = text.split(/(?<=\n)/);
  const start = lines.findIndex((l) => l.trim() === EXCLUDE_BEGIN);
  if (start === -1) return text;
  const end = lines.findIndex((l, i) => i > start && l.trim() === EXCLUDE_END);
  return [
    ...lines.slice(0, start),
    ...(end === -1 ? [] : lines.slice(end + 1)),
  ].join("");
}
