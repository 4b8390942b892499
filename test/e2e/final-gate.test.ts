import { describe, expect, it } from "vitest";
import type { GoldenPath, Move } from "../../demo/golden-path.ts";
import type { createMoves } from "../../demo/moves.ts";
import {
  createReviewedWorld,
  phaseProvenAndDone,
  stepTitled,
} from "../helpers/golden-path-world.ts";

const TICK_LAST = "it ticks the last box, ft1: the archive starts";

/** The phase proven and done, then `late` (edits after every verify), then the last tick and the end of the turn. */
function finishWith(m: ReturnType<typeof createMoves>, late: Move[]): Move[] {
  return [
    ...phaseProvenAndDone(m),
    ...late,
    ...m.tick("ft1", "allow", TICK_LAST),
    m.say("agent", "it ends its turn", "The task is handed over.", "stop"),
  ];
}

/** What the model read after the last tick: the PostToolUse context with the archive's outcome. */
function archiveContext(world: GoldenPath): string {
  return (
    stepTitled(world, TICK_LAST).reply?.contexts.find(
      (c) => c.event === "PostToolUse",
    )?.text ?? ""
  );
}

/** The steps after the one titled `title`, by title. */
function titlesAfter(world: GoldenPath, title: string): string[] {
  const at = world.steps.findIndex((s) => s.title === title);
  expect(at).toBeGreaterThanOrEqual(0);
  return world.steps.slice(at + 1).map((s) => s.title);
}

/**
 * The archive's final gate (docs/archive.md) through the real Claude Code CLI: an edit after verify makes the
 * earlier evidence stale, and the gate, not another `playbook verify`, proves the commit before it is pushed.
 */
describe("the archive's final gate, through the real Claude Code CLI", () => {
  it("a README edit after verify does not hold the archive: the last tick re-proves the commit and merges it, with no further verify", async () => {
    const { world, m } = await createReviewedWorld();
    const edit = "it notes the next task in README.md";
    await world.session({
      prompt: "Finish the task.",
      moves: finishWith(m, [
        m.read("agent", "README.md"),
        m.edit("agent", edit, "README.md", [
          "Small arithmetic helpers.\n",
          "Small arithmetic helpers. Division comes next.\n",
        ]),
      ]),
    });

    expect(titlesAfter(world, edit).filter((t) => /verify/.test(t))).toEqual(
      [],
    );
    const context = archiveContext(world);
    expect(context).toContain(
      "playbook archived plan/playbook-multiply.md → plan/archive/playbook-multiply.md (merged into main)",
    );
    expect(context).toContain(
      "final gate: ✓ p1.1 technical: node --test test/multiply.test.js (exit 0)",
    );
    expect(world.project.remoteGit("show", "main:README.md")).toContain(
      "Division comes next.",
    );
    expect(world.project.remoteGit("show", "main:src/multiply.js")).toContain(
      "a * b",
    );
  }, 900_000);

  it("a file broken after verify is not merged: main on the remote stays as it was, and the model reads the failing validation", async () => {
    const { world, m } = await createReviewedWorld();
    const mainBefore = world.project.remoteGit("rev-parse", "main").trim();
    await world.session({
      prompt: "Finish the task.",
      moves: finishWith(m, [
        m.read("agent", "src/multiply.js"),
        m.edit(
          "agent",
          "it breaks src/multiply.js after verify",
          "src/multiply.js",
          ["return a * b;", "return a + b;"],
        ),
      ]),
    });

    const context = archiveContext(world);
    expect(context).toContain("the final proof failed");
    expect(context).toContain(
      "p1.1 technical `node --test test/multiply.test.js` (exit 1): the validation fails",
    );
    expect(context).toContain("playbook archive --resume");
    expect(world.project.remoteGit("rev-parse", "main").trim()).toBe(
      mainBefore,
    );
    expect(
      world.project.remoteGit("branch", "--list", "feat/multiply").trim(),
    ).toBe("");
  }, 900_000);
});
