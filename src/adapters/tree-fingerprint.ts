import { runGitSync } from "./git-runner.ts";
import { fileIdentity } from "./tree-index-store.ts";
import {
  changesListing,
  indexIdentity,
  startTree,
  startTreeListing,
  type TreeListing,
  type TreeStart,
} from "./tree-listing.ts";
import { readTreeFingerprint } from "./tree-reading.ts";
import { isBasisDelta } from "./tree-path-reader.ts";

export {
  readTreeFingerprint,
  readWorkingTree,
  type TreeReading,
} from "./tree-reading.ts";

/**
 * The working tree's fingerprint, as `readWorkingTree` computes it. git compares every file's stat with playbook's
 * own index (`git ls-files -m -o -d` with `GIT_INDEX_FILE`) and lists each file that changed since the last full
 * reading, and each untracked file that is new. While the repository's index and playbook's own index are the ones
 * the basis was read with, and the paths git lists read as they did then, the fingerprint is the basis's; otherwise
 * `readTreeFingerprint` lists the tree's paths and reads only the files git listed. In a 10,000-file repository that
 * saves reading every file's stat from Node.
 *
 * @throws Error when git fails inside a repository.
 */
export function treeFingerprint(root: string, timeoutMs = 8000): string | null {
  const start = startTree(root);
  if (start === null) return readTreeFingerprint(root, timeoutMs, null);
  const listed = runGitSync({
    cwd: root,
    ...changesListing(start),
    purpose: "read",
    timeoutMs,
  });
  const changes = listed.status === 0 ? listed.stdout : null;
  return (
    answerFromBasis(root, start, changes) ??
    readTreeFingerprint(
      root,
      timeoutMs,
      changes === null ? null : { start, changes },
    )
  );
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
      result: Promise.resolve().then(() =>
        readTreeFingerprint(root, timeoutMs, null),
      ),
      cancel: () => {},
    };
  let cancelled = false;
  const { start } = listing;
  return {
    result: listing.stdout.then((changes) => {
      if (cancelled) return null;
      return (
        answerFromBasis(root, start, changes) ??
        readTreeFingerprint(
          root,
          timeoutMs,
          changes === null ? null : { start, changes },
        )
      );
    }),
    cancel: () => {
      cancelled = true;
      listing.cancel();
    },
  };
}

/**
 * The basis's fingerprint when there is a basis for both indexes, the paths git listed against playbook's own index
 * read as they did then, and both indexes are still the ones the basis names; else null.
 */
function answerFromBasis(
  root: string,
  { index, basis, indexFile }: TreeStart,
  listing: string | null,
): string | null {
  return basis !== null &&
    basis.index === index &&
    listing !== null &&
    isBasisDelta(root, basis, listing) &&
    indexIdentity(root) === index &&
    fileIdentity(indexFile) === basis.treeIndex
    ? basis.fingerprint
    : null;
}
