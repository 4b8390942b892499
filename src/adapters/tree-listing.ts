import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startGit } from "./git-runner.ts";
import { readTreeBasis, type TreeBasis } from "./tree-basis-store.ts";
import { fileIdentity, TREE_INDEX_FILE } from "./tree-index-store.ts";

/**
 * The settings a listing relies on, whatever the repository's config says: every stat field is compared (so a file
 * rewritten with its size and mtime put back still shows as modified), and no untracked cache (an index extension the
 * agent can write) decides what is untracked. The runner adds the rest: no fsmonitor, no configuration but the
 * repository's own.
 */
export const TREE_GIT_SETTINGS = [
  "-c",
  "core.checkStat=default",
  "-c",
  "core.trustctime=true",
  "-c",
  "core.untrackedCache=false",
];

export const LISTING = ["ls-files", "-z", "-v", "-t"];
export const WORKTREE = ["-m", "-o", "-d", "--exclude-standard"];
/** Every path the fingerprint covers: the index's paths (with mode, id and stage) and untracked files not ignored. */
export const PATHS = [
  "ls-files",
  "-z",
  "-t",
  "-s",
  "-c",
  "-o",
  "--exclude-standard",
];

/** playbook's own index as a listing started against it, and the basis, when there is one for both indexes now. */
export interface TreeStart {
  /** playbook's own index (absolute), which git lists changes against. */
  indexFile: string;
  /** Its identity (`fileIdentity`) when the listing started. */
  treeIndex: string;
  /**
   * The basis written with that index. It answers alone while the repository's index is the one it names; after a
   * `git add` or a commit, when git lists the same paths.
   */
  basis: TreeBasis | null;
  /** The repository's index when the listing started (`indexIdentity`). */
  index: string | null;
}

/**
 * `git ls-files -m -o -d` against playbook's own index: what changed since the last full reading. Started as soon as
 * a call may claim proof (by the hook's loader, before the tool bundle loads), answered by `treeFingerprintSoon`:
 * from the basis when one is there, else by a full reading that reads only the files it lists.
 */
export interface TreeListing {
  /** The project git lists. */
  root: string;
  start: TreeStart;
  /** git's output; null when git failed or the listing was cancelled. */
  stdout: Promise<string | null>;
  /** Stops git; harmless once it has ended. */
  cancel: () => void;
}

/** The listing of changes since playbook's own index, as git runs it (the same in the hook, its loader and the bench). */
export function changesListing(start: TreeStart): {
  args: string[];
  indexFile: string;
} {
  return {
    args: [...TREE_GIT_SETTINGS, ...LISTING, ...WORKTREE],
    indexFile: start.indexFile,
  };
}

/**
 * Starts the listing, or null when playbook has no index of this tree yet or git was not started (a full reading is
 * due, and says why).
 */
export function startTreeListing(
  root: string,
  timeoutMs = 8000,
): TreeListing | null {
  const start = startTree(root);
  if (start === null) return null;
  const child = startGit({
    cwd: root,
    ...changesListing(start),
    purpose: "read",
    timeoutMs,
  });
  if (child === null) return null;
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const stdout = new Promise<string | null>((resolve) => {
    child.on("error", () => resolve(null));
    child.on("close", (code) =>
      resolve(code === 0 ? Buffer.concat(chunks).toString("utf8") : null),
    );
  });
  return {
    root,
    start,
    stdout,
    cancel: () => {
      child.kill();
      child.stdout.destroy();
    },
  };
}

/** playbook's own index of the tree, if there is one, with the basis when it was written with that index. */
export function startTree(root: string): TreeStart | null {
  const indexFile = join(root, TREE_INDEX_FILE);
  const treeIndex = fileIdentity(indexFile);
  if (treeIndex === null) return null;
  const index = indexIdentity(root);
  const basis = readTreeBasis(root);
  return {
    indexFile,
    treeIndex,
    index,
    basis: basis?.treeIndex === treeIndex ? basis : null,
  };
}

/**
 * Which index file git reads, as dev:inode:size:mtime:ctime (nanoseconds), or null when it cannot be told without
 * asking git (a project below the repository's top). The runner's git sees no `GIT_DIR` or `GIT_INDEX_FILE`.
 */
export function indexIdentity(root: string): string | null {
  let file = join(root, ".git", "index");
  try {
    const dotGit = lstatSync(join(root, ".git"));
    if (dotGit.isFile()) {
      // A linked worktree: `.git` names its own git directory.
      const match = /^gitdir: (.+)$/m.exec(
        readFileSync(join(root, ".git"), "utf8"),
      );
      if (!match?.[1]) return null;
      file = join(root, match[1].trim(), "index");
      if (match[1].trim().startsWith("/"))
        file = join(match[1].trim(), "index");
    } else if (!dotGit.isDirectory()) return null;
    return fileIdentity(file);
  } catch {
    return null;
  }
}
