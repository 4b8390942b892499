import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  beginWork,
  critPhase,
  doWork,
  finishPhase,
  planTask,
  postLoop,
  requestTask,
  reviewTask,
  runTask,
  startSession,
  tick,
  verifySubtask,
} from "../../demo/golden-path.ts";
import { readTaskOutcome } from "../../demo/outcome.ts";
import { DIVIDE, MULTIPLY } from "../../demo/tasks.ts";
import { useLocalGitHub } from "../../demo/local-github.ts";
import type { GitHubServer } from "../helpers/github-server.ts";
import {
  createWorld,
  expectDone,
  expectOnPath,
  expectRefused,
  stateField,
  TODAY,
} from "../helpers/golden-path-world.ts";

const PLAYBOOK = "plan/playbook-multiply.md";
const RECORDS = ".claude/playbook/records/plan__playbook-multiply.md";

let servers: GitHubServer[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

describe("the Golden Path, step by step", () => {
  it("takes a prompt to merged work on main, refusing every shortcut on the way", async () => {
    const world = await createWorld();
    // Setup: init's files are committed on main; nothing is active.
    expect(world.project.git("branch", "--show-current").trim()).toBe("main");
    expect(stateField(world, "active")).toBe("null");

    const start = await startSession(world);
    expect(start.context).toContain("No active playbook");

    await requestTask(world, MULTIPLY);
    const [prompt, write] = world.steps.slice(-2);
    expect(prompt?.lines.join(" ")).toContain("Skill(playbook-init)");
    expect(write?.verdict).toBe("deny");
    expect(existsSync(world.path("src/multiply.js"))).toBe(false);

    await planTask(world, MULTIPLY, TODAY);
    expect(world.project.git("branch", "--show-current").trim()).toBe(
      "feat/multiply",
    );
    expect(stateField(world, "active")).toBe(PLAYBOOK);
    expect(world.read(PLAYBOOK)).toContain("reviewed: false");
    expect(world.steps.at(-1)?.lines).toEqual([
      "0 errors, 0 warnings in 2 files",
    ]);

    // Code stays shut until the review; the main agent cannot give it.
    expectRefused(
      await world.write(
        "agent",
        "write before review",
        "src/multiply.js",
        "x",
        "deny",
      ),
      "review",
    );
    expectRefused(
      await world.bash(
        "agent",
        "self-approval",
        "playbook review approve",
        "deny",
      ),
      "reviewer subagent",
    );
    expectRefused(
      await world.edit(
        "agent",
        "typed approval",
        PLAYBOOK,
        ["reviewed: false", "reviewed: true"],
        "deny",
      ),
    );
    expectDone(await reviewTask(world, "approve"));
    expect(world.read(PLAYBOOK)).toContain("reviewed: true");
    expect(existsSync(world.path(`${RECORDS}/review.playbook.json`))).toBe(
      true,
    );

    await beginWork(world, MULTIPLY);
    await doWork(world, MULTIPLY, "p1.1");
    expect(existsSync(world.path("src/multiply.js"))).toBe(true);
    expectRefused(
      await tick(world, MULTIPLY, "p1.1", "deny"),
      "playbook verify p1.1",
    );
    expect(world.read(PLAYBOOK)).toContain("- [ ] **p1.1**");
    // The same forgery through the shell is refused too.
    expectRefused(
      await world.bash(
        "agent",
        "sed tick",
        `sed -i 's/- \\[ \\] \\*\\*p1.1/- [x] **p1.1/' ${PLAYBOOK}`,
        "deny",
      ),
    );
    const verified = await verifySubtask(world, "p1.1");
    expectDone(verified);
    expect(verified.output).toContain("Every validation of p1.1 is proven");
    expect(
      ["technical", "consistency", "completeness"].map((v) =>
        existsSync(world.path(`${RECORDS}/evidence.p1.1.${v}.json`)),
      ),
    ).toEqual([true, true, true]);
    expectDone(await tick(world, MULTIPLY, "p1.1", "allow"));

    await doWork(world, MULTIPLY, "p1.2");
    expectDone(await verifySubtask(world, "p1.2"));
    expectDone(await tick(world, MULTIPLY, "p1.2", "allow"));
    expectRefused(await finishPhase(world, MULTIPLY, "deny"), "/crit");
    expectRefused(
      await world.bash(
        "agent",
        "critic verdict from the main agent",
        "playbook crit record p1 PASS",
        "deny",
      ),
      "critic",
    );
    expectDone(await critPhase(world, "p1", "PASS", "npm test passes"));
    expectDone(await finishPhase(world, MULTIPLY, "allow"));

    const last = await tick(world, MULTIPLY, "ft1", "allow");
    expectDone(last);
    expect(last.post?.context).toContain(
      "playbook archived plan/playbook-multiply.md → plan/archive/playbook-multiply.md (merged into main); the post-loop lock is set.",
    );
    const archived = readTaskOutcome(world, [
      "src/multiply.js",
      "test/multiply.test.js",
      "plan/archive/playbook-multiply.md",
      `${RECORDS}/critic.p1.json`,
      PLAYBOOK,
    ]);
    expect(archived.onMain).toEqual({
      "src/multiply.js": true,
      "test/multiply.test.js": true,
      "plan/archive/playbook-multiply.md": true,
      [`${RECORDS}/critic.p1.json`]: true,
      [PLAYBOOK]: false,
    });
    expect(archived.mainHead).toContain("Merge branch 'feat/multiply'");
    expect(archived.currentBranch).toBe("main");
    expect(archived.state).toEqual({
      active: "null",
      branch: "null",
      lastArchived: "plan/archive/playbook-multiply.md",
    });
    expect(archived.records).toHaveLength(8);
    expect(archived.locked).toBe(true);

    await postLoop(world);
    expect(readTaskOutcome(world, []).locked).toBe(false);
    expect(existsSync(world.path("src/extra.js"))).toBe(false);
    expectOnPath(world);
  }, 120_000);

  it("archives through a pull request on the GitHub provider", async () => {
    const token = "ghp_e2e00000000000000000000000000000000000";
    const env: Record<string, string | undefined> = {
      GITHUB_TOKEN: undefined,
      GH_TOKEN: undefined,
      NO_COLOR: "1",
    };
    const local = useLocalGitHub(env, token);
    const world = await createWorld({ env, ...local.options });
    await startSession(world);
    await runTask(world, MULTIPLY, TODAY, { demoBlocks: false });
    expectOnPath(world);
    const github = local.server()!;
    servers.push(github);
    expect(github.violations).toEqual([]);
    const created = github.requests.filter(
      (r) => r.method === "POST" && r.path === "/repos/acme/calc/pulls",
    );
    expect(
      created.map((r) => [r.status, (r.body as { head: string }).head]),
    ).toEqual([[201, "feat/multiply"]]);
    const merges = github.requests.filter(
      (r) => r.method === "PUT" && r.path === "/repos/acme/calc/pulls/1/merge",
    );
    expect(merges.map((r) => r.status)).toEqual([200]);
    const outcome = readTaskOutcome(world, ["src/multiply.js"]);
    expect(outcome.onMain["src/multiply.js"]).toBe(true);
    expect(outcome.mainHead).toContain("(#1)");
    // The token never reaches what the agent or the user reads.
    for (const step of world.steps)
      expect(step.lines.join("\n")).not.toContain(token);
  }, 120_000);

  it("runs two playbooks in sequence: both merged, both archived, the second on top of the first", async () => {
    const world = await createWorld();
    await startSession(world);
    await runTask(world, MULTIPLY, TODAY, { demoBlocks: false });
    // The next task starts from main, which now holds the first one's work.
    await runTask(world, DIVIDE, TODAY, { demoBlocks: false });
    expectOnPath(world);
    const outcome = readTaskOutcome(world, [
      "src/multiply.js",
      "src/divide.js",
      "plan/archive/playbook-multiply.md",
      "plan/archive/playbook-divide.md",
    ]);
    expect(Object.values(outcome.onMain)).toEqual([true, true, true, true]);
    expect(outcome.state.lastArchived).toBe("plan/archive/playbook-divide.md");
    expect(outcome.locked).toBe(false);
    expect(world.project.remoteGit("show", "main:README.md")).toContain(
      "- `sum(a, b)`\n- `multiply(a, b)`\n- `divide(a, b)`\n",
    );
    expect(
      world.project
        .remoteGit("log", "--merges", "--format=%s", "main")
        .trim()
        .split("\n")
        .map((s) => s.slice(0, 27)),
    ).toEqual(["Merge branch 'feat/divide':", "Merge branch 'feat/multiply"]);
  }, 120_000);
});
