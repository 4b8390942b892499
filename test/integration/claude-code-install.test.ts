import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  claudeCodeBinary,
  ensureClaudeCode,
  PINNED_CLAUDE_CODE,
} from "../../scripts/claude-code.ts";
import { createTempProject } from "../helpers/temp-project.ts";

/** npm without the network: only what its cache holds can be installed. */
function offline(cache: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PLAYBOOK_CLAUDE_CODE_CACHE: cache,
    npm_config_offline: "true",
  };
}

describe("the pinned Claude Code for the demo and the tests", () => {
  it("installs offline from npm's cache into an empty cache folder, even when npm holds install scripts back, and the binary runs", () => {
    // The suite's global setup installed it through npm once, so npm's cache holds the package.
    const cache = createTempProject().dir;
    const env = { ...offline(cache), npm_config_ignore_scripts: "true" };
    const binary = ensureClaudeCode(PINNED_CLAUDE_CODE, env);
    expect(binary).toBe(claudeCodeBinary(PINNED_CLAUDE_CODE, env));
    const version = spawnSync(binary, ["--version"], { encoding: "utf8" });
    expect(version.stdout).toContain(`${PINNED_CLAUDE_CODE} (Claude Code)`);
    // Only the finished install is left: no staging folder.
    expect(readdirSync(cache)).toEqual([PINNED_CLAUDE_CODE]);
  }, 600_000);

  it("says in one line what failed and what to do when it cannot be installed, and leaves nothing behind", () => {
    const cache = createTempProject().dir;
    let message = "";
    try {
      ensureClaudeCode("2.1.999", offline(cache));
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toMatch(
      /^Claude Code 2\.1\.999 could not be installed into .+ \(.+\)\. Next: connect to the npm registry once/,
    );
    expect(existsSync(join(cache, "2.1.999"))).toBe(false);
    expect(readdirSync(cache)).toEqual([]);
  }, 300_000);
});
