import { realpathSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";

export type Resolved =
  { status: "inside"; path: string } | { status: "outside" | "missing" };

/**
 * Resolves `rel` under `root` through every symlink and says whether the real file stays inside the real root.
 * A document that a symlink leads out of the repository is never read.
 */
export function resolveInside(root: string, rel: string): Resolved {
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(join(root, rel));
  } catch {
    return { status: "missing" };
  }
  const fromRoot = relative(realRoot, real);
  if (
    fromRoot === "" ||
    fromRoot === ".." ||
    fromRoot.startsWith(`..${sep}`) ||
    isAbsolute(fromRoot)
  ) {
    return { status: "outside" };
  }
  return { status: "inside", path: real };
}
