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

describe("npm run demo", () => {
  it("walks the Golden Path through the real Claude Code, from the prompt to merged work, refusing each shortcut, and exits 0", () => {
    const result = demo();
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const out = result.stdout;
    for (const stage of [
      "0. Setup",
      "1. The request",
      "4. Review",
      "5. Work with proof",
      "6. Critic",
      "7. Archive",
      "8. Post-loop",
      "Summary",
    ])
      expect(out).toContain(stage);
    expect(out).toMatch(
      /deny +agent +the agent starts coding at once: Write src\/multiply\.js/,
    );
    expect(out).toMatch(/deny +agent +it ticks p1\.1 without proof/);
    expect(out).toMatch(/allow +reviewer +the reviewer approves the plan/);
    expect(out).toMatch(/block +agent +the agent ends its turn halfway: Stop/);
    expect(out).toMatch(/Claude Code .*claude/);
    expect(out).toContain(
      "playbook archived plan/playbook-multiply.md → plan/archive/playbook-multiply.md (merged into main)",
    );
    expect(out).toMatch(/steps +\d+, each answered as the Golden Path expects/);
    expect(out).toMatch(/hooks +\d+ hook runs, \d+ ms in total/);
    expect(out).toContain(
      "active null, last_archived plan/archive/playbook-multiply.md",
    );
    expect(out).not.toContain("(unexpected)");
    // The words of the transcript are explained before they are used.
    for (const word of [
      "Golden Path",
      "pm, reviewer and critic",
      "p1.1",
      "ft1",
      "post-loop lock",
    ])
      expect(out.indexOf(word), word).toBeLessThan(out.indexOf("0. Setup"));
  }, 600_000);

  it("--github archives through a pull request on the local GitHub, with no schema violation", () => {
    const result = demo(["--github"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("(PR https://github.com/acme/calc/pull/1)");
    expect(result.stdout).toMatch(
      /pull requests +1 opened and merged on the local GitHub/,
    );
    expect(result.stdout).not.toContain("schema violations");
  }, 600_000);

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
