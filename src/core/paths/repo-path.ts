import { posix } from "node:path";

/** `C:\x\y` and `x\y` → forward slashes, so Windows paths from Claude Code compare like POSIX ones. */
export function toForwardSlashes(path: string): string {
  return path.replace(/\\/g, "/");
}

/**
 * The repository-relative POSIX path of `path` (absolute, or relative to `cwd`), with `.` and `..` resolved
 * lexically, or null when it lies outside `root`. `root` and `cwd` are absolute. Symlinks are resolved by the caller.
 */
export function toRepoPath(
  root: string,
  cwd: string,
  path: string,
): string | null {
  const rootPosix = toAbsolute("/", root);
  const absolute = toAbsolute(cwd, path);
  if (absolute === rootPosix) return "";
  const prefix = rootPosix.endsWith("/") ? rootPosix : `${rootPosix}/`;
  return absolute.startsWith(prefix) ? absolute.slice(prefix.length) : null;
}

/** `path` made absolute against `cwd`, lexically normalised, with forward slashes. */
export function toAbsolute(cwd: string, path: string): string {
  const p = toForwardSlashes(path);
  const drive = /^[A-Za-z]:\//.test(p);
  const base = toForwardSlashes(cwd);
  return drive
    ? posix.resolve("/", p.slice(2))
    : posix.resolve(posix.resolve("/", base.replace(/^[A-Za-z]:/, "")), p);
}

/** `state.md` at the repository root. */
export function isStatePath(repoPath: string): boolean {
  return repoPath === "state.md";
}

/** Anything under `plan/`: playbooks, templates, archive. */
function isPlanPath(repoPath: string): boolean {
  return repoPath.startsWith("plan/");
}

/** A playbook document: `plan/playbook-*.md`, also inside `plan/archive/` or other folders of `plan/`. */
export function isPlaybookPath(repoPath: string): boolean {
  return /^plan\/(?:.*\/)?playbook-[^/]*\.md$/i.test(repoPath);
}

/** The runtime folder: records, grants, locks, logs, cache. Only playbook commands and the hook write it. */
export function isRuntimePath(repoPath: string): boolean {
  return (
    repoPath === ".claude/playbook" || repoPath.startsWith(".claude/playbook/")
  );
}

/** The always-open repair path of docs/guards.md: `state.md` and `plan/**` stay editable whatever else blocks. */
export function isRepairPath(repoPath: string): boolean {
  return isStatePath(repoPath) || isPlanPath(repoPath);
}
