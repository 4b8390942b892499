import { readWorkingTree } from "../adapters/tree-fingerprint.ts";

/**
 * The working tree's fingerprint for comparing evidence with: null outside a git repository, `error: <why>` when git
 * failed (it matches no evidence, so a broken repository never passes for an unchanged one).
 */
export function currentTreeFingerprint(root: string): string | null {
  try {
    return readWorkingTree(root).fingerprint;
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}
