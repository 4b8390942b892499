import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Replaces `path` with `text` atomically: the bytes go to a temp file in the same directory, which is then renamed
 * over the target, so a crash leaves either the old file or the new one, never half of each. The target's mode is
 * kept, and a symlink is followed so the link itself stays a link. `durable` (the default) flushes the bytes to disk
 * before the rename, so even a power cut cannot leave an empty file; runtime scratch files that are validated on
 * read or rebuilt (the parse cache, session state) skip it, which saves the hook about a millisecond per write.
 */
export function writeTextAtomic(
  requested: string,
  text: string | Uint8Array,
  { durable = true }: { durable?: boolean } = {},
): void {
  const path = followLinks(requested);
  const dir = dirname(path);
  const temp = join(
    dir,
    `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`,
  );
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const fd = openSync(temp, "wx", mode ?? 0o644);
  try {
    // open() applies the umask; the target's exact mode must survive the rename.
    if (mode !== undefined) fchmodSync(fd, mode);
    // Writes it all: a large buffer may take more than one write(2).
    writeFileSync(fd, text);
    if (durable) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function followLinks(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
