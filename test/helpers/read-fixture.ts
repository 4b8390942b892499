import { readFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURES_DIR = join(import.meta.dirname, "..", "fixtures");

/** Absolute path of a file under test/fixtures, e.g. `fixturePath("state/minimal-valid.md")`. */
export function fixturePath(relativePath: string): string {
  return join(FIXTURES_DIR, relativePath);
}

/** The exact text of a fixture: line endings and a leading BOM are kept as they are on disk. */
export function readFixture(relativePath: string): string {
  return readFileSync(fixturePath(relativePath), "utf8");
}
