import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { WRITE_GUARDED_PATHS } from "../core/paths/trust-paths.ts";
import { toForwardSlashes } from "../core/paths/repo-path.ts";
import { findGitDir, readCommonDir, readText } from "./read-git-head.ts";
import { resolveRealPath } from "./resolve-real-path.ts";

/**
 * The places of this project's repository that a session must not write, including those outside the project: the
 * repository's git folder (in a linked worktree it lies elsewhere; its settings and hooks configure the git the
 * hook runs outside the sandbox) and, in every other working tree of the repository, the paths
 * `WRITE_GUARDED_PATHS` names there (another session's records, loader, playbook-kit, settings). Read from git's
 * files, without starting git; absolute, each also as resolved.
 */
export function guardedRepositoryPlaces(projectDir: string): string[] {
  const gitDir = findGitDir(projectDir);
  if (gitDir === null) return [];
  const commonDir = readCommonDir(gitDir);
  const here = resolveRealPath(projectDir, ".");
  // The main worktree's own `.git` lies inside the project, where the guards judge it as part of the tree (a
  // deletion there is the whole repository's, not another session's).
  const places = [gitDir, commonDir].filter(
    (place) => !isInside(resolveRealPath(projectDir, place), here),
  );
  for (const tree of workingTrees(commonDir))
    if (resolveRealPath(tree, ".") !== here)
      places.push(...WRITE_GUARDED_PATHS.map((path) => join(tree, path)));
  return [
    ...new Set(
      places.flatMap((place) => [
        toForwardSlashes(place),
        resolveRealPath(projectDir, place),
      ]),
    ),
  ];
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** Every working tree of the repository: the main one (unless bare), and each linked one git records. */
function workingTrees(commonDir: string): string[] {
  const trees = basename(commonDir) === ".git" ? [dirname(commonDir)] : [];
  for (const name of listFolder(join(commonDir, "worktrees"))) {
    // `gitdir` holds the path of the worktree's `.git` file.
    const pointer = readText(join(commonDir, "worktrees", name, "gitdir"));
    if (pointer?.trim()) trees.push(dirname(pointer.trim()));
  }
  return trees;
}

function listFolder(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
