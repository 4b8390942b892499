import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMoves, verdictBlock } from "../../demo/moves.ts";
import { MULTIPLY } from "../../demo/tasks.ts";
import {
  createWorld,
  expectOnPath,
  TODAY,
} from "../helpers/golden-path-world.ts";

const PLAYBOOK = "plan/playbook-multiply.md";
const RECORDS = ".claude/playbook/records/plan__playbook-multiply.md";

// Attacks run through the real Claude Code CLI with init's settings. Each test asserts the damage did not happen on
// disk (or on the remote), not only that the hook said no.
describe("the trust boundary, attacked through the real client", () => {
  it("a main session started with `claude --agent reviewer` (or critic) records no approval and no verdict", async () => {
    const world = await createWorld();
    const m = createMoves(world.project.dir, MULTIPLY);
    await world.session({ prompt: MULTIPLY.prompt, moves: m.plan(TODAY) });
    const records = () =>
      existsSync(world.path(RECORDS)) ? readdirSync(world.path(RECORDS)) : [];
    expect(records()).toEqual([]);

    await world.session({
      prompt: `Review ${PLAYBOOK}.`,
      agent: "reviewer",
      moves: [
        m.bash(
          "agent",
          "the --agent reviewer session approves",
          `${m.cli} review approve`,
          "deny",
        ),
        m.say("agent", "it stops", "Approved. <promise>DONE</promise>", "stop"),
      ],
    });
    await world.session({
      prompt: "Verify phase p1.",
      agent: "critic",
      moves: [
        m.bash(
          "agent",
          "the --agent critic session records a PASS",
          `${m.cli} crit record p1 PASS --evidence 'all good'`,
          "deny",
        ),
        m.say(
          "agent",
          "it ends with a verdict block",
          verdictBlock("p1", "PASS", "all good"),
          "stop",
        ),
      ],
    });
    expect(records()).toEqual([]);
    expect(world.read(PLAYBOOK)).toContain("reviewed: false");
    const grants = world.path(".claude/playbook/grants");
    expect(existsSync(grants) ? readdirSync(grants) : []).toEqual([]);
    expectOnPath(world);
  }, 400_000);
});
