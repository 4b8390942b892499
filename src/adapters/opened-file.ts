import { readlinkSync, realpathSync } from "node:fs";
import { join } from "node:path";

/**
 * Whether the open file lies at `root/path`: on Linux the kernel says where (`/proc/self/fd`); elsewhere the folder
 * that holds it must resolve to where the path says.
 */
export function isOpenedWhereItSays(
  fd: number,
  root: string,
  path: string,
): boolean {
  const expected = join(realRoot(root), path);
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === expected;
  } catch {
    // No /proc (macOS, BSD): the folder it was opened through.
  }
  const slash = path.lastIndexOf("/");
  try {
    return (
      realpathSync(join(root, slash < 0 ? "." : path.slice(0, slash))) ===
      join(realRoot(root), slash < 0 ? "" : path.slice(0, slash)).replace(
        /\/$/,
        "",
      )
    );
  } catch {
    return false;
  }
}

const roots = new Map<string, string>();

function realRoot(root: string): string {
  let real = roots.get(root);
  if (real === undefined) {
    real = realpathSync(root);
    roots.set(root, real);
  }
  return real;
}
