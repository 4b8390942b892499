import { realpathSync } from "node:fs";
import { expect } from "vitest";
import {
  createGoldenPath,
  type GoldenPath,
  type GoldenPathOptions,
  type Move,
  type Step,
} from "../../demo/golden-path.ts";
import { createMoves } from "../../demo/moves.ts";
import { MULTIPLY, type SampleTask } from "../../demo/tasks.ts";
import { createTempProject } from "./temp-project.ts";

export const TODAY = "2026-11-23";

/** The demo's world in a fresh temp folder: the sample project with playbook installed and committed on main. */
export async function createWorld(
  options: Partial<GoldenPathOptions> = {},
): Promise<GoldenPath> {
  return createGoldenPath({
    root: realpathSync(createTempProject().dir),
    env: { GITHUB_TOKEN: undefined, GH_TOKEN: undefined, NO_COLOR: "1" },
    ...options,
  });
}

/** Every step so far answered the way the Golden Path expects (the demo's "(unexpected)" marker). */
export function expectOnPath(world: GoldenPath): void {
  expect(
    world.steps
      .filter((step) => !step.expected)
      .map(
        (step) =>
          `${step.title}: ${step.verdict} ${step.lines.join(" ")} ${step.reply?.result?.text.slice(0, 400) ?? ""}`,
      ),
  ).toEqual([]);
}

/** The step with this title (the last one, when a title repeats). */
export function stepTitled(world: GoldenPath, title: string): Step {
  const step = world.steps.findLast((s) => s.title === title);
  if (step === undefined)
    throw new Error(
      `No step titled "${title}"; steps: ${world.steps.map((s) => s.title).join(" | ")}`,
    );
  return step;
}

/** What the model read after a refused move: Claude Code's error result, the hook's reason in it. */
export function refusal(step: Step): string {
  expect(step.verdict).toBe("deny");
  return step.reply?.result?.text ?? "";
}

/** `state.md`'s value of `key`, as written. */
export function stateField(world: GoldenPath, key: string): string {
  return (
    new RegExp(`^${key}: (.*)$`, "m").exec(world.read("state.md"))?.[1] ?? ""
  );
}

/** Has `probe` run when Claude Code asks for the move titled `title`: the world as the move before it left it. */
export function probeBefore(
  moves: Move[],
  title: string,
  probe: () => void,
): void {
  const move = moves.find((m) => m.title === title);
  if (move === undefined) throw new Error(`No move titled "${title}"`);
  const earlier = move.before;
  move.before = () => {
    earlier?.();
    probe();
  };
}

/** A world whose task the pm has planned and the reviewer approved (one session): where an attack or a scene starts. */
export async function createReviewedWorld(
  task: SampleTask = MULTIPLY,
): Promise<{ world: GoldenPath; m: ReturnType<typeof createMoves> }> {
  const world = await createWorld();
  const m = createMoves(world.project.dir, task);
  await world.session({
    prompt: task.prompt,
    moves: [...m.plan(TODAY), ...m.review("approve")],
  });
  return { world, m };
}

/** The multiply task's one phase done the usual way: worked, verified, ticked, judged by the critic and closed. */
export function phaseProvenAndDone(m: ReturnType<typeof createMoves>): Move[] {
  return [
    ...m.begin(),
    ...m.work("p1.1"),
    ...m.verify("p1.1"),
    ...m.tick("p1.1", "allow"),
    ...m.work("p1.2"),
    ...m.verify("p1"),
    ...m.tick("p1.2", "allow"),
    ...m.crit("p1", "PASS", "npm test passes; README and CHANGELOG list it"),
    ...m.finishPhase("allow"),
  ];
}
