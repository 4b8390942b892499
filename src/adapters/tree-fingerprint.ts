import { runGitSync } from "./git-runner.ts";
import { fileIdentity } from "./tree-index-store.ts";
import {
  changesListing,
  indexIdentity,
  startFromBasis,
  startTreeListing,
  type BasisStart,
  type TreeListing,
} from "./tree-listing.ts";
import { readWorkingTree } from "./tree-reading.ts";
import { createPathReader, objectFormat, stateOf } from "./tree-path-reader.ts";
import {
  deltaText,
  parseChangedPaths,
  type PathState,
} from "../core/records/tree-fingerprint.ts";

export { readWorkingTree, type TreeReading } from "./tree-reading.ts";

/**
 * The working tree's fingerprint, as `readWorkingTree` computes it. While the repository's index and playbook's own
 * index are the ones the basis was read with, git's stat comparison against playbook's own index (`git ls-files -m
 * -o -d` with `GIT_INDEX_FILE`) lists every file that changed since, and every untracked file that is new: when the
 * paths it lists read as they did, the fingerprint is the basis's. In a 10,000-file repository that saves reading
 * every file's stat from Node on each tick.
 *
 * @throws Error when git fails inside a repository.
 */
export function treeFingerprint(root: string, timeoutMs = 8000): string | null {
  const start = startFromBasis(root);
  if (start !== null) {
    const listed = runGitSync({
      cwd: root,
      ...changesListing(start),
      purpose: "read",
      timeoutMs,
    });
    const answer =
      listed.status === 0 ? answerFromBasis(root, start, listed.stdout) : null;
    if (answer !== null) return answer;
  }
  return readWorkingTree(root, timeoutMs).fingerprint;
}

/**
 * `treeFingerprint`, started now and answered later: git lists the changed files while the caller does other work
 * (the hook reads records and state meanwhile). `listing` is one started earlier still, by the hook's loader.
 * `cancel` stops git when the answer is not needed after all.
 */
export function treeFingerprintSoon(
  root: string,
  timeoutMs = 8000,
  listing: TreeListing | null = startTreeListing(root, timeoutMs),
): { result: Promise<string | null>; cancel: () => void } {
  if (listing === null)
    return {
      result: Promise.resolve().then(
        () => readWorkingTree(root, timeoutMs).fingerprint,
      ),
      cancel: () => {},
    };
  let cancelled = false;
  return {
    result: listing.stdout.then((stdout) => {
      if (cancelled) return null;
      const answer =
        stdout === null ? null : answerFromBasis(root, listing.start, stdout);
      return answer ?? readWorkingTree(root, timeoutMs).fingerprint;
    }),
    cancel: () => {
      cancelled = true;
      listing.cancel();
    },
  };
}

/**
 * The basis's fingerprint when the paths git listed against playbook's own index read as they did then and both
 * indexes are still the ones the basis names, else null. A path the basis does not know (a file changed since, a new
 * untracked file) means a full reading.
 */
function answerFromBasis(
  root: string,
  { index, basis, indexFile }: BasisStart,
  listing: string,
): string | null {
  const { paths, untracked } = parseChangedPaths(listing);
  const read = createPathReader(
    root,
    objectFormat(root),
    new Map(),
    basis.known,
  );
  const placeholders = new Set([...untracked, ...basis.untracked]);
  const delta = new Map<string, PathState>();
  for (const path of new Set([...paths, ...Object.keys(basis.gitlinks)]))
    delta.set(
      path,
      stateOf(
        read(path, {
          untracked: placeholders.has(path),
          gitlink: basis.gitlinks[path],
          indexMode: undefined,
        }),
      ),
    );
  return deltaText(delta) === basis.delta &&
    indexIdentity(root) === index &&
    fileIdentity(indexFile) === basis.treeIndex
    ? basis.fingerprint
    : null;
}
