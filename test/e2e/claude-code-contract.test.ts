import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMoves, verdictBlock } from "../../demo/moves.ts";
import { MULTIPLY } from "../../demo/tasks.ts";
import { recordHookPayloads } from "../helpers/payload-recorder.ts";
import {
  createWorld,
  expectOnPath,
  stepTitled,
  TODAY,
} from "../helpers/golden-path-world.ts";

const PLAYBOOK = "plan/playbook-multiply.md";
const RECORDS = ".claude/playbook/records/plan__playbook-multiply.md";

// What the real client does, as opposed to what its documentation or a stand-in suggests: each test pins one fact
// playbook relies on (or had to stop relying on). docs/claude-code.md says what each means.
describe("Claude Code as it really runs the hooks", () => {
  it("an Edit that fails Claude Code's own checks runs no hook at all; a failing Bash command runs PostToolUseFailure", async () => {
    const world = await createWorld();
    const payloads = recordHookPayloads(world.project.dir, [
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
    ]);
    const m = createMoves(world.project.dir, MULTIPLY);
    await world.session({
      prompt: "Tidy up state.md.",
      moves: [
        m.read("agent", "state.md", {
          quiet: false,
          title: "it reads state.md",
        }),
        m.edit(
          "agent",
          "an Edit whose old_string is not in the file",
          "state.md",
          ["no such text", "x"],
          "fail",
        ),
        m.edit(
          "agent",
          "an Edit whose old_string is there twice",
          "state.md",
          ["null", "x"],
          "fail",
        ),
        m.edit(
          "agent",
          "an Edit of a file that does not exist",
          "plan/nothing-here.md",
          ["a", "b"],
          "fail",
        ),
        m.bash("agent", "a command that exits 3", "exit 3", "fail"),
        m.say(
          "agent",
          "it stops",
          "Nothing to tidy. <promise>DONE</promise>",
          "stop",
        ),
      ],
    });
    const recorded = payloads().map(
      (p) => `${p.hook_event_name} ${p.tool_name ?? ""}`,
    );
    // The Read and the Bash command reached the hooks; none of the three Edits did, not even PreToolUse.
    expect(recorded).toEqual([
      "PreToolUse Read",
      "PostToolUse Read",
      "PreToolUse Bash",
      "PostToolUseFailure Bash",
    ]);
    expect(payloads().at(-1)?.error).toContain("Exit code 3");
    // The model still learns what went wrong, from Claude Code's own message.
    const told = (title: string) =>
      stepTitled(world, title).reply?.result?.text ?? "";
    expect(told("an Edit whose old_string is not in the file")).toContain(
      "String to replace not found",
    );
    expect(told("an Edit whose old_string is there twice")).toMatch(
      /matches of the string to replace/,
    );
    expect(told("an Edit of a file that does not exist")).toMatch(
      /does not exist/i,
    );
    expectOnPath(world);
  }, 300_000);

  it("agent_type names a subagent and also a main session started with --agent; only a subagent's call has agent_id", async () => {
    const world = await createWorld();
    const payloads = recordHookPayloads(world.project.dir, ["PreToolUse"]);
    const m = createMoves(world.project.dir, MULTIPLY);
    await world.session({
      prompt: "Look at state.md.",
      agent: "reviewer",
      moves: [
        m.read("agent", "state.md", {
          quiet: false,
          title: "the --agent session reads state.md",
        }),
        m.say("agent", "it stops", "Seen. <promise>DONE</promise>", "stop"),
      ],
    });
    await world.session({
      prompt: "Have the reviewer look at state.md.",
      moves: [
        m.delegate(
          "reviewer",
          "it starts the reviewer subagent",
          "Look at state.md.",
        ),
        m.read("reviewer", "state.md", {
          quiet: false,
          title: "the subagent reads state.md",
        }),
        m.say("reviewer", "the reviewer reports back", "Seen.", "stop"),
        m.say("agent", "it stops", "Done. <promise>DONE</promise>", "stop"),
      ],
    });
    const reads = payloads()
      .filter((p) => p.tool_name === "Read")
      .map((p) => ({
        agent_type: p.agent_type,
        has_agent_id: typeof p.agent_id === "string",
      }));
    expect(reads).toEqual([
      { agent_type: "reviewer", has_agent_id: false },
      { agent_type: "reviewer", has_agent_id: true },
    ]);
    expectOnPath(world);
  }, 300_000);

  it("SubagentStop sends a critic without a verdict block back once, then records its verdict without any command", async () => {
    const world = await createWorld();
    const m = createMoves(world.project.dir, MULTIPLY);
    await world.session({
      prompt: MULTIPLY.prompt,
      moves: [
        ...m.plan(TODAY),
        ...m.review("approve"),
        ...m.begin(),
        ...["p1.1", "p1.2"].flatMap((id) => [
          ...m.work(id),
          ...m.verify(id),
          ...m.tick(id, "allow"),
        ]),
        // p1.2's work changed the code p1.1's evidence proved: the phase is proven again.
        ...m.verify("p1"),
        m.delegate(
          "critic",
          "it asks the critic to verify p1",
          `Verify phase p1 of ${PLAYBOOK}.`,
        ),
        m.bash("critic", "the critic reruns the tests", "npm test"),
        m.say(
          "critic",
          "the critic ends without its verdict block",
          "p1 looks finished.",
          "block",
        ),
        m.say(
          "critic",
          "sent back, it ends with its verdict block",
          verdictBlock("p1", "PASS", "npm test exit 0, multiply exported"),
          "stop",
        ),
        ...m.finishPhase("allow"),
        m.say(
          "agent",
          "it stops",
          "p1 is done. <promise>DONE</promise>",
          "stop",
        ),
      ],
    });
    const record = JSON.parse(
      readFileSync(world.path(`${RECORDS}/critic.p1.json`), "utf8"),
    ) as {
      verdict: string;
      by: string;
      detail: { source?: string; evidence?: string };
    };
    expect(record).toMatchObject({
      verdict: "PASS",
      by: "critic",
      detail: {
        source: "SubagentStop",
        evidence: "npm test exit 0, multiply exported",
      },
    });
    expect(readFileSync(world.path(PLAYBOOK), "utf8")).toContain(
      "**status**: done",
    );
    expectOnPath(world);
  }, 300_000);

  it("the Stop continuation feeds the next step back and lets the agent stop after five in a row", async () => {
    const world = await createWorld();
    const m = createMoves(world.project.dir, MULTIPLY);
    // After the review the model only ever says it is done: every turn ends, no work gets done.
    const outcome = await world.session({
      prompt: MULTIPLY.prompt,
      moves: [
        ...m.plan(TODAY),
        ...m.review("approve"),
        m.say("agent", "it stops without working", "All done.", "block"),
      ],
    });
    const stops = outcome.hooks.filter((run) => run.event === "Stop");
    const blocked = stops.filter((run) =>
      run.stdout.includes('"decision":"block"'),
    );
    expect(blocked).toHaveLength(5);
    expect(stops).toHaveLength(6);
    // Each continuation reached the model as Stop hook feedback that names the next subtask.
    const feedbacks = outcome.requests
      .filter((r) => r.agent === "main")
      .map((r) =>
        JSON.stringify(
          r.messages.slice(
            r.messages.findLastIndex(
              (message) => message.role === "assistant",
            ) + 1,
          ),
        ),
      )
      .filter((text) => text.includes("Stop hook feedback"));
    expect(feedbacks.length).toBe(5);
    for (const text of feedbacks) expect(text).toContain("Next: p1.1");
    expect(outcome.session.exitCode).toBe(0);
    expect(outcome.session.result?.subtype).toBe("success");
  }, 300_000);
});
