import { statSync } from "node:fs";
import { readBounded } from "./read-bounded.ts";
import {
  MAX_GIT_POINTER_BYTES,
  MAX_PACKED_REFS_BYTES,
} from "../core/paths/input-limits.ts";
import { basename, isAbsolute, join } from "node:path";

export interface GitHead {
  /** null when HEAD is detached or there is no repository. */
  branch: string | null;
  /** From `refs/remotes/origin/HEAD`, else `main`/`master` when one exists locally, else null. */
  defaultBranch: string | null;
}

/**
 * Reads the current and default branch straight from `.git` (also a worktree's `gitdir:` file), without starting
 * git: the hook runs on every tool call and a git process costs more than the rest of the hook.
 */
export function readGitHead(projectDir: string): GitHead {
  const gitDir = findGitDir(projectDir);
  if (!gitDir) return { branch: null, defaultBranch: null };
  const commonDir = readCommonDir(gitDir);
  const head = readText(join(gitDir, "HEAD"));
  const branchMatch = head ? /^ref: refs\/heads\/(.+)$/m.exec(head) : null;
  const branch = branchMatch?.[1]?.trim() ?? null;
  const originHead = readText(
    join(commonDir, "refs", "remotes", "origin", "HEAD"),
  );
  const remoteDefault = originHead
    ? /^ref: refs\/remotes\/origin\/(.+)$/m.exec(originHead)?.[1]?.trim()
    : undefined;
  if (remoteDefault) return { branch, defaultBranch: remoteDefault };
  const packed =
    readText(join(commonDir, "packed-refs"), MAX_PACKED_REFS_BYTES) ?? "";
  const exists = (name: string) =>
    isFile(join(commonDir, "refs", "heads", name)) ||
    packed.includes(` refs/heads/${name}\n`) ||
    branch === name;
  const local = ["main", "master"].find(exists) ?? null;
  return { branch, defaultBranch: local };
}

/**
 * The commit HEAD names, read from git's files (HEAD, then the branch's loose ref or `packed-refs`); null on an unborn
 * branch, in a project below its repository's top, or when the files cannot be read.
 */
export function readHeadCommit(projectDir: string): string | null {
  const gitDir = findGitDir(projectDir);
  if (!gitDir) return null;
  const head = readText(join(gitDir, "HEAD"))?.trim() ?? "";
  if (/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(head)) return head;
  const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  if (!ref) return null;
  const commonDir = readCommonDir(gitDir);
  const loose = (
    readText(join(gitDir, ref)) ?? readText(join(commonDir, ref))
  )?.trim();
  if (loose && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(loose)) return loose;
  const packed = readText(join(commonDir, "packed-refs")) ?? "";
  for (const line of packed.split("\n")) {
    const [oid, name] = line.split(" ");
    if (name === ref && oid && /^[0-9a-f]{40,64}$/.test(oid)) return oid;
  }
  return null;
}

/** The project's git folder: `.git` itself, or the folder a worktree's `.git` file names. */
export function findGitDir(projectDir: string): string | null {
  const dotGit = join(projectDir, ".git");
  try {
    const stats = statSync(dotGit);
    if (stats.isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(
      readBounded(dotGit, MAX_GIT_POINTER_BYTES).text,
    );
    const target = pointer?.[1]?.trim();
    if (!target) return null;
    return isAbsolute(target) ? target : join(projectDir, target);
  } catch {
    return null;
  }
}

/**
 * The repository's own git folder, shared by its worktrees (`commondir`); `gitDir` itself for the main one, whose
 * `.git/commondir` (a file git never writes there, and the agent's shell can) is not read, as the git runner does not.
 */
export function readCommonDir(gitDir: string): string {
  if (basename(gitDir) === ".git") return gitDir;
  const common = readText(join(gitDir, "commondir"))?.trim();
  if (!common) return gitDir;
  return isAbsolute(common) ? common : join(gitDir, common);
}

/** A git file the agent's shell can write (HEAD, packed-refs): null when missing, unreadable or larger than `max`. */
export function readText(
  path: string,
  max = MAX_GIT_POINTER_BYTES,
): string | null {
  try {
    const read = readBounded(path, max);
    return read.truncated ? null : read.text;
  } catch {
    return null;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
