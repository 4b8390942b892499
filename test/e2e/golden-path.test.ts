import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { GoldenPath } from "../../demo/golden-path.ts";
import { readTaskOutcome } from "../../demo/outcome.ts";
import { playDemo, type DemoRun } from "../../demo/play-demo.ts";
import { runTask } from "../../demo/run-task.ts";
import { DIVIDE } from "../../demo/tasks.ts";
import { contextsOf } from "../../harness/model-view.ts";
import { stripColors } from "../../src/cli/print/colors.ts";
import {
  probeBefore,
  expectOnPath,
  refusal,
  stateField,
  stepTitled,
  TODAY,
} from "../helpers/golden-path-world.ts";

const PLAYBOOK = "plan/playbook-multiply.md";
const RECORDS = ".claude/playbook/records/plan__playbook-multiply.md";

let runs: DemoRun[] = [];
afterEach(async () => {
  for (const run of runs) await run.close(false);
  runs = [];
});

/**
 * `npm run demo`'s play, in this process: the transcript it prints and the world it leaves. Edits accepted,
 * playbook's commands and the tests allowed, anything else refused (-p cannot ask), as Claude Code users run it; the
 * other sessions of the suite skip permissions, and the Golden Path must hold in both.
 */
async function demo(
  github: boolean,
  prepare?: Parameters<typeof playDemo>[0]["prepare"],
): Promise<{ run: DemoRun; world: GoldenPath; out: string; err: string }> {
  let out = "";
  let err = "";
  const run = await playDemo({
    github,
    date: TODAY,
    // CI=true turns colour on, as it does for `npm run demo` in CI: the words are what is checked.
    out: (text) => (out += stripColors(text)),
    err: (text) => (err += stripColors(text)),
    ...(prepare ? { prepare } : {}),
  });
  runs.push(run);
  if (run.world === null) throw new Error(`the demo did not start: ${err}`);
  return { run, world: run.world, out, err };
}

/** What `npm run demo` prints for every play: each stage, the refusals, the summary. */
function expectTranscript(out: string): void {
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
  expect(out).toMatch(/steps +\d+, each answered as the Golden Path expects/);
  expect(out).toMatch(/hooks +\d+ hook runs, \d+ ms in total/);
  expect(out).toContain(
    "active null, last_archived plan/archive/playbook-multiply.md",
  );
  expect(out).toContain(
    "The task went from prompt to merged work; every shortcut was refused.",
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
}

describe("the Golden Path through the real Claude Code CLI", () => {
  it("npm run demo's play takes a prompt to merged work on main in acceptEdits mode, refusing every shortcut on the way", async () => {
    // What each refusal left on disk, read when Claude Code asks the model for the move after it.
    const seen: Record<string, unknown> = {};
    let before: { branch: string; active: string } | null = null;
    const { run, world, out, err } = await demo(
      false,
      (request, next, world) => {
        // The lock as the first session left it, read when the user's next message starts.
        probeBefore(
          next.moves,
          "Skill(post-loop) picks up after the archive",
          () => {
            seen["locked after the archive"] = readTaskOutcome(
              world,
              [],
            ).locked;
          },
        );
        probeBefore(
          request.moves,
          "the agent starts coding at once: Write src/multiply.js",
          () => {
            before = {
              branch: world.project.git("branch", "--show-current").trim(),
              active: stateField(world, "active"),
            };
          },
        );
        probeBefore(
          request.moves,
          "it starts the Golden Path: Skill(playbook-init)",
          () => {
            seen["code on main"] = existsSync(world.path("src/multiply.js"));
          },
        );
        probeBefore(
          request.moves,
          "it proves p1.1: npx --no playbook verify p1.1",
          () => {
            seen["forged tick"] = readFileSync(
              world.path(PLAYBOOK),
              "utf8",
            ).includes("- [x] **p1.1**");
          },
        );
        probeBefore(
          request.moves,
          "it asks the reviewer subagent for a review",
          () => {
            seen["self-approval"] = readFileSync(
              world.path(PLAYBOOK),
              "utf8",
            ).includes("reviewed: true");
          },
        );
        probeBefore(
          request.moves,
          "it asks the critic subagent to verify p1",
          () => {
            seen["done without critic"] = readFileSync(
              world.path(PLAYBOOK),
              "utf8",
            ).includes("**status**: done");
          },
        );
        probeBefore(
          request.moves,
          "it ends its turn: Stop lets it, the task is handed over",
          () => {
            seen["code under the lock"] = existsSync(
              world.path("src/extra.js"),
            );
          },
        );
      },
    );
    expect(err).toBe("");
    expect(run.exitCode).toBe(0);
    expectTranscript(out);
    expect(out).toContain(
      "playbook archived plan/playbook-multiply.md → plan/archive/playbook-multiply.md (merged into main)",
    );
    expect(before).toEqual({ branch: "main", active: "null" });
    const [first, second] = world.sessions;
    if (!first || !second) throw new Error("two sessions expected");

    // SessionStart and UserPromptSubmit context reached the model in its first request.
    const opening = contextsOf(first.requests.find((r) => r.agent === "main")!);
    expect(opening.find((c) => c.event === "SessionStart")?.text).toContain(
      "No active playbook",
    );
    expect(opening.find((c) => c.event === "UserPromptSubmit")?.text).toContain(
      "Skill(playbook-init)",
    );

    // Each refusal reached the model as an error result naming the next step, and left nothing behind.
    expect(
      refusal(
        stepTitled(
          world,
          "the agent starts coding at once: Write src/multiply.js",
        ),
      ),
    ).toMatch(/default branch `main`[\s\S]*Next: /);
    expect(
      refusal(
        stepTitled(
          world,
          "the main agent approves its own plan: npx --no playbook review approve",
        ),
      ),
    ).toContain("reviewer subagent");
    expect(
      refusal(
        stepTitled(world, "it ticks p1.1 without proof (a forged checkbox)"),
      ),
    ).toContain("playbook verify p1.1");
    expect(
      refusal(
        stepTitled(world, "it marks phase p1 done before the critic's verdict"),
      ),
    ).toContain("/crit");
    expect(
      refusal(
        stepTitled(
          world,
          "it keeps coding after the archive: Write src/extra.js",
        ),
      ),
    ).toContain("post-loop lock");
    expect(seen).toEqual({
      "code on main": false,
      "self-approval": false,
      "forged tick": false,
      "done without critic": false,
      "code under the lock": false,
      "locked after the archive": true,
    });

    // The reviewer's approval and the critic's verdict are recorded as theirs; verify recorded the evidence.
    const record = (name: string) =>
      JSON.parse(readFileSync(world.path(`${RECORDS}/${name}`), "utf8")) as {
        verdict: string;
        by: string;
      };
    expect(record("review.playbook.json")).toMatchObject({
      verdict: "approve",
      by: "reviewer",
    });
    expect(record("critic.p1.json")).toMatchObject({
      verdict: "PASS",
      by: "critic",
    });
    expect(record("evidence.p1.1.technical.json").verdict).toBe("PASS");

    // The stop halfway came back to the model as the next step, and the session ended on its own.
    const halfway = stepTitled(world, "the agent ends its turn halfway: Stop");
    expect(halfway.verdict).toBe("block");
    expect(halfway.reply?.feedback).toContain("Next: p1.2");
    expect(first.session.exitCode).toBe(0);

    // Ticking the last box ran the archive in PostToolUse: the model read the outcome, origin/main has the work.
    const archive = stepTitled(
      world,
      "it ticks the last box, ft1: the archive starts",
    );
    expect(
      archive.reply?.contexts.find((c) => c.event === "PostToolUse")?.text,
    ).toContain(
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
    // SessionEnd ran when the headless session ended (--include-hook-events does not report it).
    expect(stateField(world, "last_end")).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The user's next message: the lock is in the context, and the post-loop skill lifts it.
    const resumed = contextsOf(
      second.requests.find((r) => r.agent === "main")!,
    );
    expect(resumed.find((c) => c.event === "UserPromptSubmit")?.text).toContain(
      "post-loop lock set",
    );
    expect(readTaskOutcome(world, []).locked).toBe(false);
    expectOnPath(world);
  }, 300_000);

  it("npm run demo --github's play, then a second playbook: both merged through pull requests, the second on top of the first", async () => {
    const { run, world, out, err } = await demo(true);
    expect(err).toBe("");
    expect(run.exitCode).toBe(0);
    expectTranscript(out);
    expect(out).toContain("(PR https://github.com/acme/calc/pull/1)");
    expect(out).toMatch(
      /pull requests +1 opened and merged on the local GitHub/,
    );
    const github = run.github!;
    // The next task starts from main, which now holds the first one's work.
    await runTask(world, DIVIDE, TODAY, { demoBlocks: false });
    expectOnPath(world);
    expect(github.violations).toEqual([]);
    const created = github.requests.filter(
      (r) => r.method === "POST" && r.path === "/repos/acme/calc/pulls",
    );
    expect(
      created.map((r) => [r.status, (r.body as { head: string }).head]),
    ).toEqual([
      [201, "feat/multiply"],
      [201, "feat/divide"],
    ]);
    const merges = github.requests.filter(
      (r) =>
        r.method === "PUT" &&
        /^\/repos\/acme\/calc\/pulls\/\d+\/merge$/.test(r.path),
    );
    expect(merges.map((r) => [r.path, r.status])).toEqual([
      ["/repos/acme/calc/pulls/1/merge", 200],
      ["/repos/acme/calc/pulls/2/merge", 200],
    ]);
    const outcome = readTaskOutcome(world, [
      "src/multiply.js",
      "src/divide.js",
      "plan/archive/playbook-multiply.md",
      "plan/archive/playbook-divide.md",
    ]);
    expect(Object.values(outcome.onMain)).toEqual([true, true, true, true]);
    expect(outcome.mainHead).toContain("(#2)");
    expect(outcome.state.lastArchived).toBe("plan/archive/playbook-divide.md");
    expect(outcome.locked).toBe(false);
    expect(world.project.remoteGit("show", "main:README.md")).toContain(
      "- `sum(a, b)`\n- `multiply(a, b)`\n- `divide(a, b)`\n",
    );
    expect(
      world.project
        .remoteGit("log", "--first-parent", "--format=%s", "main")
        .trim()
        .split("\n")
        .slice(0, 2)
        .map((s) => s.replace(/^.*\((#\d+)\)$/, "$1")),
    ).toEqual(["#2", "#1"]);
    // The token never reaches what the model read.
    for (const session of world.sessions)
      for (const request of session.requests)
        expect(JSON.stringify(request.messages)).not.toContain("ghp_demo");
  }, 600_000);
});
