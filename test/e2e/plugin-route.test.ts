import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ensureClaudeCode,
  PINNED_CLAUDE_CODE,
} from "../../scripts/claude-code.ts";
import { createMoves } from "../../demo/moves.ts";
import { MULTIPLY } from "../../demo/tasks.ts";
import {
  createClaudeHome,
  removeClaudeHome,
} from "../../harness/claude-session.ts";
import {
  createWorld,
  expectOnPath,
  refusal,
  stepTitled,
  TODAY,
} from "../helpers/golden-path-world.ts";

const REPOSITORY = join(import.meta.dirname, "..", "..");

describe("playbook as a Claude Code plugin", () => {
  it("claude --plugin-dir: the plugin's hooks guard the session and its reviewer's approval opens the gate", async () => {
    // The project has only playbook's files (`init --plugin`); hooks, agents and skills come from the plugin.
    const world = await createWorld({ plugin: true });
    // settings.json holds the sandbox that guards the records, and no hooks: the plugin brings them.
    const settings = JSON.parse(world.read(".claude/settings.json")) as {
      hooks?: unknown;
      sandbox?: { enabled?: boolean };
    };
    expect(settings.hooks).toBeUndefined();
    expect(settings.sandbox?.enabled).toBe(true);
    expect(existsSync(world.path(".claude/agents/reviewer.md"))).toBe(false);
    const pluginDir = world.path("node_modules/playbook-kit");
    const m = createMoves(world.project.dir, MULTIPLY, { plugin: true });
    const first = await world.session({
      prompt: MULTIPLY.prompt,
      pluginDir,
      promptContext: "Skill(playbook-init)",
      moves: [
        ...m.codeAtOnce(),
        ...m.plan(TODAY),
        m.write(
          "agent",
          "it writes code before the review",
          "src/multiply.js",
          "x",
          "deny",
        ),
        ...m.review("approve"),
        ...m.begin(),
        ...m.work("p1.1"),
        m.say(
          "agent",
          "it pauses",
          "p1.1 is written. <promise>DONE</promise>",
          "stop",
        ),
      ],
    });
    expect(first.hooks.map((run) => run.event)).toContain("SessionStart");
    expect(
      refusal(
        stepTitled(
          world,
          "the agent starts coding at once: Write src/multiply.js",
        ),
      ),
    ).toContain("default branch `main`");
    expect(
      refusal(stepTitled(world, "it writes code before the review")),
    ).toContain("review");
    const review = JSON.parse(
      readFileSync(
        world.path(
          ".claude/playbook/records/plan__playbook-multiply.md/review.playbook.json",
        ),
        "utf8",
      ),
    ) as { verdict: string; by: string };
    expect(review).toEqual(
      expect.objectContaining({ verdict: "approve", by: "playbook:reviewer" }),
    );
    expect(readFileSync(world.path("src/multiply.js"), "utf8")).toContain(
      "export function multiply",
    );
    expectOnPath(world);
  }, 300_000);

  it("claude plugin validate --strict passes on the repository", () => {
    // The pinned release's validator judges the layout, whichever release the other tests run (2.1.139 has no --strict).
    const validator = ensureClaudeCode(PINNED_CLAUDE_CODE);
    const home = createClaudeHome();
    try {
      const result = spawnSync(
        validator,
        ["plugin", "validate", REPOSITORY, "--strict"],
        {
          encoding: "utf8",
          env: {
            ...process.env,
            HOME: home,
            CLAUDE_CONFIG_DIR: join(home, ".claude"),
          },
          timeout: 120_000,
        },
      );
      expect(result.stdout).toContain("Validation passed");
      expect(result.stdout).not.toMatch(/Found \d+ warning/);
      expect(result.status).toBe(0);
    } finally {
      removeClaudeHome(home);
    }
  });
});
