import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createReviewedWorld,
  expectOnPath,
  phaseProvenAndDone,
  stepTitled,
} from "../helpers/golden-path-world.ts";

const TICK_LAST = "it ticks the last box, ft1: the archive starts as a job";
const FOLLOW = "it follows the archive's job to its end";

/**
 * The archive the last tick starts runs as a job of the hook's own (docs/archive.md): through the real Claude Code
 * CLI, with `archive.hookWaitSeconds` at 0 the hook does not wait for it, and the model follows it with the command
 * the hook gave, which prints each step and ends with the archive's exit code. The work reaches the remote.
 */
describe("the hook's archive runs as a job, through the real Claude Code CLI", () => {
  it("past the hook's wait, the model follows the job to the merge with the command it was given", async () => {
    const { world, m } = await createReviewedWorld();
    const config = JSON.parse(world.read(".claude/playbook.json")) as {
      archive?: Record<string, unknown>;
    };
    config.archive = { ...config.archive, hookWaitSeconds: 0 };
    writeFileSync(
      world.path(".claude/playbook.json"),
      `${JSON.stringify(config, null, 2)}\n`,
    );
    world.project.git("commit", "-q", "-am", "Hand the archive over at once");

    const follow = m.bash("agent", FOLLOW, "true");
    // The job's folder is named when the hook starts it: the model runs what the hook told it, as a model would.
    follow.before = () => {
      const jobs = world.path(".claude/playbook/jobs");
      const job = readdirSync(jobs).find((name) => name.startsWith("archive-"));
      if (job === undefined || follow.tool === undefined)
        throw new Error("no archive job was started");
      follow.tool.input["command"] =
        `node '${join(dirname(world.cli), "job.cjs")}' wait '${join(jobs, job)}'`;
    };
    await world.session({
      prompt: "Finish the task.",
      moves: [
        ...phaseProvenAndDone(m),
        ...m.tick("ft1", "allow", TICK_LAST),
        follow,
        m.say("agent", "it ends its turn", "The task is handed over.", "stop"),
      ],
    });

    expectOnPath(world);
    const told =
      stepTitled(world, TICK_LAST).reply?.contexts.find(
        (c) => c.event === "PostToolUse",
      )?.text ?? "";
    expect(told).toContain(
      "its archive runs as a job outside this hook (the final gate re-proves the commit before it is pushed), and it has not finished yet",
    );
    expect(told).toMatch(/Next: run `'[^`]*job\.cjs' 'wait' '[^`]*archive-/);
    const output = stepTitled(world, FOLLOW).reply?.result?.text ?? "";
    expect(output).toMatch(/final-gate\s+✓ p1\.1 technical: /);
    expect(output).toMatch(/✓ merge\s+/);
    expect(output).toContain("archived plan/playbook-multiply.md");
    expect(world.project.remoteGit("show", "main:src/multiply.js")).toContain(
      "a * b",
    );
    expect(
      JSON.parse(world.read(".claude/playbook/post-loop.json")),
    ).toMatchObject({ status: "success" });
  }, 900_000);
});
