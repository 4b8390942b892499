import {
  treeFingerprint,
  treeFingerprintSoon,
} from "../../adapters/tree-fingerprint.ts";
import type { TreeListing } from "../../adapters/tree-listing.ts";

const failed = (error: unknown) =>
  `error: ${error instanceof Error ? error.message : String(error)}`;

/**
 * The working tree's fingerprint for comparing evidence with: null outside a git repository, `error: <why>` when git
 * failed (it matches no evidence, so a broken repository never passes for an unchanged one).
 */
export function currentTreeFingerprint(root: string): string | null {
  try {
    return treeFingerprint(root);
  } catch (error) {
    return failed(error);
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
  result: Promise<string | null>;
  cancel: () => void;
} {
  try {
    const soon =
      started?.root === root
        ? treeFingerprintSoon(root, undefined, started)
        : treeFingerprintSoon(root);
    return { result: soon.result.catch(failed), cancel: soon.cancel };
  } catch (error) {
    return { result: Promise.resolve(failed(error)), cancel: () => {} };
  }
}
