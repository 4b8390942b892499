import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childEnv } from "../helpers/run-cli.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const root = join(import.meta.dirname, "../..");
const tsx = join(root, "node_modules/.bin/tsx");

/** The README's main job, `npm run demo` (after the build `npm test` does first), as a new user runs it. */
function demo(args: string[] = [], env: Record<string, string> = {}) {
  return spawnSync(tsx, [join(root, "demo/main.ts"), ...args], {
    encoding: "utf8",
    // As from a terminal inside a Claude Code session whose user turned playbook off: the demo's own hooks still run.
    env: childEnv({
      NO_COLOR: "1",
      CLAUDECODE: "1",
      PLAYBOOK_DISABLE: "1",
      CLAUDE_PROJECT_DIR: root,
      ...env,
    }),
    timeout: 540_000,
  });
}

// The demo's play itself (every stage, every refusal, the summary, with --github too) is asserted in
// test/e2e/golden-path.test.ts, which plays it in-process and reads the Golden Path's facts from that one recording.
describe("npm run demo", () => {
  it("says in one line why it cannot run when Claude Code cannot be installed, and exits 1", () => {
    const result = demo([], {
      PLAYBOOK_CLAUDE_CODE_VERSION: "2.1.999",
      PLAYBOOK_CLAUDE_CODE_CACHE: createTempProject().dir,
      npm_config_offline: "true",
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines.at(-1)).toMatch(
      /^The demo could not run: Claude Code 2\.1\.999 could not be installed into .+\. Next: /,
    );
    expect(result.stdout).not.toContain("Summary");
  }, 300_000);
});
