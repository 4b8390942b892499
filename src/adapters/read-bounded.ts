import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** A file read no further than a limit: its text up to it, and its whole size as `fstat` saw it. */
export interface BoundedRead {
  text: string;
  size: number;
  /** The file holds more than was read. */
  truncated: boolean;
}

/**
 * Reads at most `maxBytes` of `path`. A file the agent can write may be as large as it likes (a 20 MB `state.md`, a
 * sparse `.git/HEAD`): a trusted process never reads more than it can judge in time. The size comes from the open
 * file itself, so the file cannot grow between the check and the read. Throws as `readFileSync` does.
 */
export function readBounded(path: string, maxBytes: number): BoundedRead {
  const fd = openSync(path, "r");
  try {
    const { size } = fstatSync(fd);
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n <= 0) break;
      read += n;
    }
    const truncated = read > maxBytes;
    return {
      text: buffer.toString("utf8", 0, Math.min(read, maxBytes)),
      size: Math.max(size, read),
      truncated,
    };
  } finally {
    closeSync(fd);
  }
}
