import {
  treeFingerprint,
  treeFingerprintSoon,
} from "../adapters/tree-fingerprint.ts";

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

/** `currentTreeFingerprint`, started now: git runs while the hook reads the rest of what the guards need. */
export function currentTreeFingerprintSoon(root: string): {
  result: Promise<string | null>;
  cancel: () => void;
} {
  try {
    const soon = treeFingerprintSoon(root);
    return { result: soon.result.catch(failed), cancel: soon.cancel };
  } catch (error) {
    return { result: Promise.resolve(failed(error)), cancel: () => {} };
  }
}
