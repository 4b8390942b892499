import { existsSync, readFileSync, renameSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  beginWork,
  critPhase,
  doWork,
  finishPhase,
  planTask,
  postLoop,
  reviewTask,
  startSession,
  tick,
  verifySubtask,
} from "../../demo/golden-path.ts";
import { readTaskOutcome } from "../../demo/outcome.ts";
import { MULTIPLY } from "../../demo/tasks.ts";
import {
  createWorld,
  expectDone,
  expectOnPath,
  expectRefused,
  stateField,
  TODAY,
} from "../helpers/golden-path-world.ts";
import type { GoldenPath } from "../../demo/golden-path.ts";

const PLAYBOOK = "plan/playbook-multiply.md";
const RECORDS = ".claude/playbook/records/plan__playbook-multiply.md";

function readRecord(world: GoldenPath, name: string) {
  return JSON.parse(readFileSync(world.path(`${RECORDS}/${name}`), "utf8")) as {
    verdict: string;
    by: string;
    detail: Record<string, unknown>;
  };
}

/** A session on the multiply task, reviewed and started, with p1.1 and p1.2 done and ticked. */
async function throughSubtasks(world: GoldenPath): Promise<void> {
  await startSession(world);
  await planTask(world, MULTIPLY, TODAY);
  await reviewTask(world, "approve");
  await beginWork(world, MULTIPLY);
  for (const id of ["p1.1", "p1.2"]) {
    await doWork(world, MULTIPLY, id);
    await verifySubtask(world, id);
    await tick(world, MULTIPLY, id, "allow");
  }
}

describe("the Golden Path's failure branches", () => {
  it("the reviewer rejects: code stays shut until pm fixes the plan and the reviewer approves", async () => {
    const world = await createWorld();
    await startSession(world);
    await planTask(world, MULTIPLY, TODAY);
    const rejected = await reviewTask(
      world,
      "reject",
      "1. p1.1 does not say what multiply returns for negative numbers.",
    );
    expectDone(rejected);
    expect(world.read(PLAYBOOK)).toContain("reviewed: false");
    const review = readRecord(world, "review.playbook.json");
    expect(review.verdict).toBe("reject");
    expect(review.by).toBe("reviewer");
    expect(review.detail["notes"]).toContain("negative numbers");

    await beginWork(world, MULTIPLY);
    expectRefused(
      await world.write(
        "agent",
        "code after a rejection",
        "src/multiply.js",
        "x",
        "deny",
      ),
      "review",
    );
    // pm answers the finding in the plan (the playbook stays editable), then the reviewer looks again.
    expectDone(
      await world.edit(
        "pm",
        "pm fixes the finding",
        PLAYBOOK,
        [
          "which returns `a * b`,",
          "which returns `a * b` (also for negative numbers),",
        ],
        "allow",
      ),
    );
    expectDone(await reviewTask(world, "approve"));
    expect(readRecord(world, "review.playbook.json").verdict).toBe("approve");
    await doWork(world, MULTIPLY, "p1.1");
    expect(existsSync(world.path("src/multiply.js"))).toBe(true);
    expectOnPath(world);
  }, 120_000);

  it("the critic says FAIL: the phase stays open until the fix, proof again and the critic's PASS", async () => {
    const world = await createWorld();
    await throughSubtasks(world);
    expectDone(
      await critPhase(
        world,
        "p1",
        "FAIL",
        "README lists multiply but shows no example",
      ),
    );
    expect(readRecord(world, "critic.p1.json").verdict).toBe("FAIL");
    const refused = await finishPhase(world, MULTIPLY, "deny");
    expectRefused(refused, "FAIL");
    expect(world.read(PLAYBOOK)).toContain("**status**: in_progress");

    // The fix: reopen p1.2, change the README, prove it again, tick it, and ask the critic again.
    expectDone(
      await world.edit(
        "agent",
        "reopen p1.2",
        PLAYBOOK,
        ["- [x] **p1.2**", "- [ ] **p1.2**"],
        "allow",
      ),
    );
    expectDone(
      await world.edit(
        "agent",
        "add the example",
        "README.md",
        [
          "- `multiply(a, b)`\n",
          "- `multiply(a, b)`: `multiply(6, 7)` is `42`\n",
        ],
        "allow",
      ),
    );
    expectDone(await verifySubtask(world, "p1.2"));
    expectDone(await tick(world, MULTIPLY, "p1.2", "allow"));
    expectDone(await critPhase(world, "p1", "PASS", "the example is there"));
    expectDone(await finishPhase(world, MULTIPLY, "allow"));
    expectDone(await tick(world, MULTIPLY, "ft1", "allow"));
    expect(world.project.remoteGit("show", "main:README.md")).toContain(
      "`multiply(6, 7)` is `42`",
    );
    expectOnPath(world);
  }, 120_000);

  it("the archive is interrupted (the remote is unreachable) and resumed: one merge, then the lock", async () => {
    const world = await createWorld();
    await throughSubtasks(world);
    await critPhase(world, "p1", "PASS", "npm test passes");
    await finishPhase(world, MULTIPLY, "allow");
    const remote = world.project.remoteDir;
    renameSync(remote, `${remote}.away`);
    const last = await tick(world, MULTIPLY, "ft1", "allow");
    expectDone(last);
    expect(last.post?.context).toContain(
      "playbook started the archive of plan/playbook-multiply.md, and it stopped: pushing feat/multiply to origin failed",
    );
    expect(last.post?.context).toContain(
      "Next: fix the remote or your access, then run `playbook archive --resume`. Steps: ✓ commit",
    );
    expect(
      existsSync(world.path(".claude/playbook/archive-journal.json")),
    ).toBe(true);
    expect(existsSync(world.path(".claude/playbook/post-loop.json"))).toBe(
      false,
    );
    // Until the archive finishes, the agent may still fix things on the playbook's branch.
    expect(world.project.git("branch", "--show-current").trim()).toBe(
      "feat/multiply",
    );

    renameSync(`${remote}.away`, remote);
    const resumed = await world.bash(
      "agent",
      "resume the archive",
      "playbook archive --resume",
      "allow",
    );
    expectDone(resumed);
    const outcome = readTaskOutcome(world, [
      "src/multiply.js",
      "plan/archive/playbook-multiply.md",
    ]);
    expect(outcome.onMain).toEqual({
      "src/multiply.js": true,
      "plan/archive/playbook-multiply.md": true,
    });
    expect(
      world.project
        .remoteGit("log", "--merges", "--format=%s", "main")
        .trim()
        .split("\n"),
    ).toHaveLength(1);
    expect(outcome.state.active).toBe("null");
    expect(outcome.locked).toBe(true);
    await postLoop(world);
    expect(readTaskOutcome(world, []).locked).toBe(false);
    expectOnPath(world);
  }, 120_000);

  it("the session is compacted mid-phase: the summary comes back and work goes on where it stopped", async () => {
    const world = await createWorld();
    await startSession(world);
    await planTask(world, MULTIPLY, TODAY);
    await reviewTask(world, "approve");
    await beginWork(world, MULTIPLY);
    await doWork(world, MULTIPLY, "p1.1");
    await verifySubtask(world, "p1.1");
    await tick(world, MULTIPLY, "p1.1", "allow");

    const saved = await world.event(
      "compaction: PreCompact",
      "PreCompact",
      { trigger: "auto", custom_instructions: "" },
      (answer) => answer.exitCode === 0,
    );
    expect(saved.decision).toBeNull();
    const restored = await startSession(world, "compact");
    expect(restored.context).toContain(PLAYBOOK);
    expect(restored.context).toContain("p1.2");
    expect(stateField(world, "phase")).toBe("p1");

    // The next subtask continues without starting over.
    await doWork(world, MULTIPLY, "p1.2");
    expectDone(await verifySubtask(world, "p1.2"));
    expectDone(await tick(world, MULTIPLY, "p1.2", "allow"));
    expectDone(await critPhase(world, "p1", "PASS", "npm test passes"));
    expectDone(await finishPhase(world, MULTIPLY, "allow"));
    const last = await tick(world, MULTIPLY, "ft1", "allow");
    expect(last.post?.context).toContain("merged into main");
    expectOnPath(world);
  }, 120_000);
});
