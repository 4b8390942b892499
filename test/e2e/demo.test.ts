import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childEnv } from "../helpers/run-cli.ts";

// The README's main job, `npm run demo`, as a new user runs it (after the build `npm test` does first).
describe("npm run demo", () => {
  it("replays the guards and the session events and exits 0", () => {
    const result = spawnSync(
      process.execPath,
      [join(import.meta.dirname, "../../scripts/demo.mjs")],
      { encoding: "utf8", env: childEnv({ NO_COLOR: "1" }), timeout: 120_000 },
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toContain("0 errors, 0 warnings in 2 files");
    expect(out).toContain("the agent writes code before the plan is reviewed");
    expect(out).not.toContain("(unexpected)");
    expect(out).not.toContain("FAIL");
    expect(out).toMatch(/SessionStart injects a \d+-byte summary/);
    expect(out).toContain("the turn goes on with the next step");
    expect(out).toContain("every guard answered as expected");
  });
});
