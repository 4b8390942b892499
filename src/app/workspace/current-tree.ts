import {
  treeFingerprint,
  treeFingerprintSoon,
} from "../../adapters/tree-fingerprint.ts";
import type { TreeListing } from "../../adapters/tree-listing.ts";
import type { TreeState } from "../../core/records/proof-state.ts";

const unreadable = (error: unknown): TreeState => ({
  unreadable: error instanceof Error ? error.message : String(error),
});

/**
 * The working tree's fingerprint for comparing evidence with (`TreeState`): null outside a git repository, git's
 * words when git could not read the tree of one (they match no evidence, so a broken repository never passes for an
 * unchanged one).
 */
export function currentTreeFingerprint(root: string): TreeState {
  try {
    return treeFingerprint(root);
  } catch (error) {
    return unreadable(error);
  }
}

/**
 * `currentTreeFingerprint`, started now: git runs while the hook reads the rest of what the guards need. A listing the
 * loader already started is used when it is of this project.
 */
export function currentTreeFingerprintSoon(
  root: string,
  started?: TreeListing | null,
): {
  result: Promise<TreeState>;
  cancel: () => void;
} {
  try {
    const soon =
      started?.root === root
        ? treeFingerprintSoon(root, undefined, started)
        : treeFingerprintSoon(root);
    return { result: soon.result.catch(unreadable), cancel: soon.cancel };
  } catch (error) {
    return { result: Promise.resolve(unreadable(error)), cancel: () => {} };
  }
}
