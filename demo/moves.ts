import { join } from "node:path";
import type { ScriptedToolUse } from "../harness/model-server.ts";
import type { Move, ModelActor } from "./golden-path.ts";
import type { SampleTask } from "./tasks.ts";

type Expect = Move["expect"];

/**
 * The scripted model's moves for one task, as the generated agents, skills and CLAUDE.md tell Claude Code to work.
 * Every file tool gets an absolute path in `project`; the agent's shell runs playbook as the instructions say:
 * `npx --no playbook` where `init` wrote the agents for a project install, the runtime copy's `node
 * .claude/playbook/runtime/dist/cli.mjs` in any other repository (`cli`), `npx -y playbook-kit` where the plugin
 * brings them (its agents are then named `playbook:<name>`).
 */
export function createMoves(
  project: string,
  task: SampleTask,
  { plugin = false, cli: spelled }: { plugin?: boolean; cli?: string } = {},
) {
  const cli = spelled ?? (plugin ? "npx -y playbook-kit" : "npx --no playbook");
  const namespace = plugin ? "playbook:" : "";
  const file = (relative: string) => join(project, relative);
  const playbook = `plan/playbook-${task.name}.md`;
  const move = (
    actor: ModelActor,
    title: string,
    tool: ScriptedToolUse,
    expect: Expect,
    extra: Partial<Move> = {},
  ): Move => ({ actor, title, tool, expect, ...extra });
  const bash = (
    actor: ModelActor,
    title: string,
    command: string,
    expect: Expect = "allow",
  ) =>
    move(
      actor,
      title,
      { name: "Bash", input: { command, description: title } },
      expect,
    );
  const read = (
    actor: ModelActor,
    relative: string,
    extra: Partial<Move> = {},
  ) =>
    move(
      actor,
      `it reads ${relative}`,
      { name: "Read", input: { file_path: file(relative) } },
      "allow",
      {
        quiet: true,
        ...extra,
      },
    );
  const write = (
    actor: ModelActor,
    title: string,
    relative: string,
    content: string,
    expect: Expect = "allow",
  ) =>
    move(
      actor,
      title,
      { name: "Write", input: { file_path: file(relative), content } },
      expect,
    );
  const edit = (
    actor: ModelActor,
    title: string,
    relative: string,
    [oldString, newString]: [string, string],
    expect: Expect = "allow",
  ) =>
    move(
      actor,
      title,
      {
        name: "Edit",
        input: {
          file_path: file(relative),
          old_string: oldString,
          new_string: newString,
        },
      },
      expect,
    );
  const say = (
    actor: ModelActor,
    title: string,
    text: string,
    expect: "stop" | "block",
  ): Move => ({
    actor,
    title,
    text,
    expect,
  });
  const delegate = (subagent: string, title: string, prompt: string): Move =>
    move(
      "agent",
      title,
      {
        name: "Agent",
        input: {
          description: title.slice(0, 40),
          prompt,
          subagent_type: `${namespace}${subagent}`,
          run_in_background: false,
        },
      },
      "allow",
    );

  return {
    file,
    playbook,
    cli,
    move,
    bash,
    read,
    write,
    edit,
    say,
    delegate,

    /** With no playbook, the agent's first instinct is to code: refused on main. */
    codeAtOnce(): Move[] {
      const [first] = task.work["p1.1"] ?? [];
      return first?.tool === "Write"
        ? [
            write(
              "agent",
              `the agent starts coding at once: Write ${first.path}`,
              first.path,
              first.content,
              "deny",
            ),
          ]
        : [];
    },

    /** playbook-init hands the task to pm: `playbook new`, the playbook written in full, lint clean. */
    plan(date: string): Move[] {
      return [
        move(
          "agent",
          "it starts the Golden Path: Skill(playbook-init)",
          { name: "Skill", input: { skill: `${namespace}playbook-init` } },
          "allow",
        ),
        delegate(
          "pm",
          "it hands the request to the pm subagent",
          `Write the playbook for this request: ${task.prompt}`,
        ),
        bash(
          "pm",
          `pm starts the playbook: ${cli} new ${task.name}`,
          `${cli} new ${task.name}`,
        ),
        read("pm", playbook),
        write(
          "pm",
          `pm writes ${playbook} from the understanding check`,
          playbook,
          task.playbook(date),
        ),
        bash("pm", `pm checks it: ${cli} lint`, `${cli} lint`),
        say(
          "pm",
          "pm reports back",
          `${playbook} is written and lint-clean; it needs the reviewer.`,
          "stop",
        ),
      ];
    },

    /** The review: the reviewer subagent reads the plan and records its verdict. */
    review(
      verdict: "approve" | "reject",
      notes = "The plan is testable and in scope.",
    ): Move[] {
      return [
        delegate(
          "reviewer",
          "it asks the reviewer subagent for a review",
          `Review ${playbook}.`,
        ),
        read("reviewer", playbook),
        bash(
          "reviewer",
          `the reviewer ${verdict === "approve" ? "approves" : "rejects"} the plan: ${cli} review ${verdict}`,
          `${cli} review ${verdict} --notes ${shellQuote(notes)}`,
        ),
        say(
          "reviewer",
          "the reviewer reports back",
          `Review recorded: ${verdict}. ${notes}`,
          "stop",
        ),
      ];
    },

    /** Before its first change the agent reads CLAUDE.md, state.md and the playbook, then starts phase p1. */
    begin(): Move[] {
      return [
        read("agent", "CLAUDE.md", {
          quiet: false,
          title: "it reads CLAUDE.md, state.md and the playbook",
        }),
        read("agent", "state.md"),
        read("agent", playbook),
        edit("agent", "it sets phase p1 in_progress", playbook, [
          "**status**: pending",
          "**status**: in_progress",
        ]),
      ];
    },

    /** The agent does a subtask's work, one tool call per change (it reads a file before it edits it). */
    work(subtask: string): Move[] {
      return (task.work[subtask] ?? []).flatMap((item) =>
        item.tool === "Write"
          ? [write("agent", `it writes ${item.path}`, item.path, item.content)]
          : [
              read("agent", item.path),
              edit("agent", `it edits ${item.path}`, item.path, [
                item.old,
                item.new,
              ]),
            ],
      );
    },

    /** The agent runs the subtask's validations through `playbook verify`, which records the evidence. */
    verify(subtask: string): Move[] {
      return [
        bash(
          "agent",
          `it proves ${subtask}: ${cli} verify ${subtask}`,
          `${cli} verify ${subtask}`,
        ),
      ];
    },

    /** The agent ticks a box; `expect` says whether the proof exists. It reads the playbook first: playbook wrote it. */
    tick(id: string, expect: Expect, title = `it ticks ${id}`): Move[] {
      return [
        read("agent", playbook),
        edit(
          "agent",
          title,
          playbook,
          [`- [ ] **${id}**`, `- [x] **${id}**`],
          expect,
        ),
      ];
    },

    /** The critic subagent reruns the checks and records its verdict, then ends with the verdict block. */
    crit(phase: string, verdict: "PASS" | "FAIL", evidence: string): Move[] {
      return [
        delegate(
          "critic",
          `it asks the critic subagent to verify ${phase}`,
          `Verify phase ${phase} of ${playbook}.`,
        ),
        bash(
          "critic",
          `the critic reruns the tests: ${task.testCommand ?? "npm test"}`,
          task.testCommand ?? "npm test",
        ),
        bash(
          "critic",
          `the critic judges ${phase}: ${cli} crit record ${phase} ${verdict}`,
          `${cli} crit record ${phase} ${verdict} --evidence ${shellQuote(evidence)}`,
        ),
        say(
          "critic",
          "the critic reports back with its verdict block",
          verdictBlock(phase, verdict, evidence),
          "stop",
        ),
      ];
    },

    /** The agent marks the phase done; `expect` says whether the critic's PASS backs it. */
    finishPhase(expect: Expect, title = "it marks phase p1 done"): Move[] {
      return [
        read("agent", playbook),
        edit(
          "agent",
          title,
          playbook,
          ["**status**: in_progress", "**status**: done"],
          expect,
        ),
      ];
    },
  };
}

/** The fenced block the critic ends with; the SubagentStop hook records it. */
export function verdictBlock(
  phase: string,
  verdict: "PASS" | "FAIL",
  evidence: string,
): string {
  return `Phase ${phase}: ${verdict}.\n\n\`\`\`verdict\nphase: ${phase}\nverdict: ${verdict}\nevidence: ${evidence}\n\`\`\``;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Gives the first shown move of `moves` the stage heading the transcript prints before it. */
export function staged(stage: string, moves: (Move | null)[]): Move[] {
  const kept = moves.filter((m): m is Move => m !== null);
  const first = kept.findIndex((m) => !m.quiet);
  return kept.map((m, index) => (index === first ? { ...m, stage } : m));
}
