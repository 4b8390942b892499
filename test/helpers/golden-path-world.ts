import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { ToolOutcome } from "../../demo/claude-code.ts";
import {
  createGoldenPath,
  type GoldenPath,
  type GoldenPathOptions,
} from "../../demo/golden-path.ts";
import { CLI_BUNDLE } from "./run-cli.ts";
import { createTempProject } from "./temp-project.ts";

export const TODAY = "2026-11-23";

/** The demo's world in a fresh temp folder: the sample project with playbook installed and committed on main. */
export async function createWorld(
  options: Partial<GoldenPathOptions> = {},
): Promise<GoldenPath> {
  return createGoldenPath({
    root: realpathSync(createTempProject().dir),
    cli: CLI_BUNDLE,
    env: { GITHUB_TOKEN: undefined, GH_TOKEN: undefined, NO_COLOR: "1" },
    ...options,
  });
}

/** A tool call the hooks let through and that then succeeded. */
export function expectDone(outcome: ToolOutcome): void {
  expect(outcome.pre.reason).toBe("");
  expect(outcome.allowed).toBe(true);
  expect({ exitCode: outcome.exitCode, output: outcome.output }).toMatchObject({
    exitCode: 0,
  });
}

/** A tool call the hooks refused, whose reason mentions each of `mentions` and names the next step. */
export function expectRefused(
  outcome: ToolOutcome,
  ...mentions: string[]
): void {
  expect(outcome.allowed).toBe(false);
  expect(outcome.pre.reason).toMatch(/Next: /);
  for (const text of mentions) expect(outcome.pre.reason).toContain(text);
}

/** Every step so far answered the way the Golden Path expects (the demo's "(unexpected)" marker). */
export function expectOnPath(world: GoldenPath): void {
  expect(
    world.steps
      .filter((step) => !step.expected)
      .map((step) => `${step.title}: ${step.lines.join(" ")}`),
  ).toEqual([]);
}

/** `state.md`'s value of `key`, as written. */
export function stateField(world: GoldenPath, key: string): string {
  return (
    new RegExp(`^${key}: (.*)$`, "m").exec(world.read("state.md"))?.[1] ?? ""
  );
}

export const DEMO_DIR = fileURLToPath(new URL("../../demo/", import.meta.url));
