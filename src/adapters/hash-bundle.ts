import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** The `sha256` hex of a file, as the hook loader checks it; null when it cannot be read. */
export function hashBundle(path: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return null;
  }
}
