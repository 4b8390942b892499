import { FRESH_TEMP, freshTempRest } from "./fresh-temp-call.ts";
import { toRepoPath } from "../paths/repo-path.ts";

/** The name a fresh temp path stands for inside the temp folder: mktemp makes a new one, so nothing is there yet. */
const FRESH_NAME = "playbook-fresh-mktemp";

/**
 * The temp folder a fresh temp path (`d=$(mktemp -d)`) can be put in, or null: when it is unknown, holds characters
 * the shell would split or glob, or lies inside the project, where a new name could still match a guarded pattern.
 */
export function freshTempFolder(
  tmpDir: string | null,
  projectDir: string,
): string | null {
  if (!tmpDir || /[\s*?[\]$`\\]/.test(tmpDir)) return null;
  const folder = tmpDir.replace(/\/+$/, "") || "/";
  return toRepoPath(projectDir, "/", folder) === null ? folder : null;
}

/**
 * A path starting with the fresh temp marker as `<tmpDir>/<a fresh name>/rest`, when `rest` has no `..` segment and
 * the temp folder is known. Otherwise the marker reads `$(mktemp)`: still a variable, so the path counts as unknown.
 */
export function expandFreshTemp(path: string, tmpDir: string | null): string {
  const rest = freshTempRest(path);
  return rest !== null && tmpDir !== null
    ? `${tmpDir === "/" ? "" : tmpDir}/${FRESH_NAME}${rest}`
    : showFreshTemp(path);
}

/** The marker as messages spell it: `$(mktemp)`. */
export function showFreshTemp(text: string): string {
  return text.includes(FRESH_TEMP)
    ? text.split(FRESH_TEMP).join("$(mktemp)")
    : text;
}
