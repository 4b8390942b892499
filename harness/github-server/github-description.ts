import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A file of GitHub's API description the server validates against (kept with the test fixtures, `test/fixtures/github/`). */
export function readGitHubDescription(name: string): string {
  return readFileSync(
    join(import.meta.dirname, "..", "..", "test", "fixtures", "github", name),
    "utf8",
  );
}
