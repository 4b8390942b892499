import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  type BigIntStats,
} from "node:fs";
import { join } from "node:path";

/**
 * Whether the open file lies at `root/path`: on Linux the kernel says where (`/proc/self/fd`); elsewhere the folder
 * that holds it must resolve to where the path says.
 */
function isOpenedWhereItSays(fd: number, root: string, path: string): boolean {
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

/** `root` with every link resolved, once per process: the project's root does not move while playbook runs. */
export function realRoot(root: string): string {
  let real = roots.get(root);
  if (real === undefined) {
    real = realpathSync(root);
    roots.set(root, real);
  }
  return real;
}

/**
 * Opens `root/path` for reading only if it is still the regular file `stat` describes, lying where the path says:
 * no link followed, no pipe waited on. Null otherwise, when something else was put there meanwhile.
 */
export function openStatedFile(
  root: string,
  path: string,
  stat: BigIntStats,
): { fd: number; opened: BigIntStats } | null {
  let fd: number;
  try {
    fd = openSync(
      join(root, path),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch {
    return null;
  }
  try {
    const opened = fstatSync(fd, { bigint: true });
    if (
      opened.isFile() &&
      opened.dev === stat.dev &&
      opened.ino === stat.ino &&
      isOpenedWhereItSays(fd, root, path)
    )
      return { fd, opened };
  } catch {
    // Unreadable: as if something else lay there.
  }
  closeSync(fd);
  return null;
}
