import type { GoldenPath, SessionOptions } from "./golden-path.ts";
import { createMoves, staged } from "./moves.ts";
import type { SampleTask } from "./tasks.ts";

/**
 * The Golden Path for one task, as two sessions of the real Claude Code: the user's request, taken from the prompt
 * to merged work (the archive runs in the PostToolUse hook of the edit that ticks the last box), then the user's
 * next message, which lifts the post-loop lock. With `demoBlocks`, the agent also tries each shortcut the guards
 * refuse.
 */
export function goldenPathSessions(
  world: GoldenPath,
  task: SampleTask,
  date: string,
  options: { demoBlocks?: boolean; dir?: string; cli?: string } = {},
): [SessionOptions, SessionOptions] {
  const blocks = options.demoBlocks ?? true;
  const dir = options.dir ?? world.project.dir;
  const m = createMoves(dir, task, options.cli ? { cli: options.cli } : {});
  const request: SessionOptions = {
    dir,
    prompt: task.prompt,
    promptContext: "Skill(playbook-init)",
    moves: [
      ...staged(
        "1. The request: no playbook yet, so no code",
        blocks ? m.codeAtOnce() : [],
      ),
      ...staged("2-3. Plan: playbook-init hands the task to pm", m.plan(date)),
      ...staged("4. Review: only the reviewer's verdict counts", [
        blocks
          ? m.bash(
              "agent",
              "the main agent approves its own plan: npx --no playbook review approve",
              "npx --no playbook review approve",
              "deny",
            )
          : null,
        ...m.review("approve"),
      ]),
      ...staged("5. Work with proof: every tick needs a current record", [
        ...m.begin(),
        ...m.work("p1.1"),
        ...(blocks
          ? m.tick(
              "p1.1",
              "deny",
              "it ticks p1.1 without proof (a forged checkbox)",
            )
          : []),
        ...m.verify("p1.1"),
        ...m.tick("p1.1", "allow"),
        blocks
          ? m.say(
              "agent",
              "the agent ends its turn halfway: Stop",
              "p1.1 is done.",
              "block",
            )
          : null,
        ...m.work("p1.2"),
        ...m.verify("p1.2"),
        ...m.tick("p1.2", "allow"),
        // The work on p1.2 changed the code p1.1's evidence proved: the phase is proven again as a whole.
        ...m.verify("p1"),
      ]),
      ...staged("6. Critic: a phase is done only with the critic's PASS", [
        ...(blocks
          ? m.finishPhase(
              "deny",
              "it marks phase p1 done before the critic's verdict",
            )
          : []),
        ...m.crit(
          "p1",
          "PASS",
          "npm test passes; README and CHANGELOG list the function",
        ),
        ...m.finishPhase("allow"),
      ]),
      ...staged(
        "7. Archive: ticking the last box hands the work over",
        m.tick(
          "ft1",
          "allow",
          "it ticks the last box, ft1: the archive starts",
        ),
      ),
      ...staged("8. Post-loop: the lock holds until the next task is picked", [
        blocks
          ? m.write(
              "agent",
              "it keeps coding after the archive: Write src/extra.js",
              "src/extra.js",
              "export {};\n",
              "deny",
            )
          : null,
        m.say(
          "agent",
          "it ends its turn: Stop lets it, the task is handed over",
          `The ${task.name} task is merged into main.`,
          "stop",
        ),
      ]),
    ],
  };
  const next: SessionOptions = {
    dir,
    resume: true,
    prompt: "What is next?",
    promptContext: "post-loop",
    moves: [
      m.move(
        "agent",
        "Skill(post-loop) picks up after the archive",
        { name: "Skill", input: { skill: "post-loop" } },
        "allow",
      ),
      m.bash(
        "agent",
        "it lifts the lock: npx --no playbook post-loop",
        "npx --no playbook post-loop",
      ),
      m.say(
        "agent",
        "it asks the user for the next task",
        "The lock is lifted. What should I do next?",
        "stop",
      ),
    ],
  };
  return [request, next];
}

/** Runs both sessions of `goldenPathSessions`. */
export async function runTask(
  world: GoldenPath,
  task: SampleTask,
  date: string,
  options: { demoBlocks?: boolean; dir?: string; cli?: string } = {},
): Promise<void> {
  for (const session of goldenPathSessions(world, task, date, options))
    await world.session(session);
}
