import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startGit } from "./git-runner.ts";
import { readTreeBasis, type TreeBasis } from "./tree-basis-store.ts";

/**
 * The settings a fingerprint relies on, whatever the repository's config says: every stat field is compared (so a
 * file rewritten with its size and mtime put back still shows as modified). The runner adds the rest: no fsmonitor,
 * no configuration but the repository's own.
 */
export const TREE_GIT_SETTINGS = [
  "-c",
  "core.checkStat=default",
  "-c",
  "core.trustctime=true",
];

export const LISTING = ["ls-files", "-z", "-v", "-t"];
export const WORKTREE = ["-m", "-o", "-d", "--exclude-standard"];

export interface BasisStart {
  index: string;
  basis: TreeBasis;
}

/**
 * `git ls-files -m -o -d` running against the tree's basis: what changed since the last full reading. Started as soon
 * as a call may claim proof (by the hook's loader, before the tool bundle loads), answered by `treeFingerprintSoon`.
 */
export interface TreeListing {
  /** The project git lists. */
  root: string;
  start: BasisStart;
  /** git's output; null when git failed or the listing was cancelled. */
  stdout: Promise<string | null>;
  /** Stops git; harmless once it has ended. */
  cancel: () => void;
}

/**
 * Starts the listing, or null when there is no basis for the index git has now or git was not started (a full
 * reading is due, and says why).
 */
export function startTreeListing(
  root: string,
  timeoutMs = 8000,
): TreeListing | null {
  const start = startFromBasis(root);
  if (start === null) return null;
  const child = startGit({
    cwd: root,
    args: [...TREE_GIT_SETTINGS, ...LISTING, ...WORKTREE],
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

/** The basis, when there is one for the index git has now. */
export function startFromBasis(root: string): BasisStart | null {
  const index = indexIdentity(root);
  const basis = index === null ? null : readTreeBasis(root);
  return basis !== null && basis.index === index ? { index, basis } : null;
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
    const s = lstatSync(file, { bigint: true });
    if (!s.isFile()) return null;
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return null;
  }
}
