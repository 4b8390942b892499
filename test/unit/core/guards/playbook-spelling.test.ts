import { describe, expect, it } from "vitest";
import { spellingProblem } from "../../../../src/core/guards/playbook-spelling.ts";
import { playbookArgs } from "../../../../src/core/guards/command-words.ts";

const RUNTIME = {
  kind: "runtime" as const,
  cli: "node .claude/playbook/runtime/dist/cli.mjs",
};
const NPM = { kind: "npm" as const, cli: "npx --no playbook" };
const ROOT = { projectDir: "/p", cwd: "/p" };

function problem(
  command: string,
  setup: typeof RUNTIME | typeof NPM,
  where = ROOT,
): string | null {
  const argv = command.split(" ");
  const args = playbookArgs(argv);
  if (args === null) throw new Error(`${command} is not a playbook call`);
  return spellingProblem(argv, args, setup, where);
}

describe("a playbook call spelled another way than the setup runs it", () => {
  it.each([
    ["node .claude/playbook/runtime/dist/cli.mjs status", ROOT],
    ["node ./.claude/playbook/runtime/dist/cli.mjs verify p1.1", ROOT],
    [
      "node /p/.claude/playbook/runtime/dist/cli.mjs status",
      { projectDir: "/p", cwd: "/p/src" },
    ],
    [
      "node ../.claude/playbook/runtime/dist/cli.mjs status",
      { projectDir: "/p", cwd: "/p/src" },
    ],
  ])("runtime setup accepts %s", (command, where) => {
    expect(problem(command, RUNTIME, where)).toBeNull();
  });

  it.each([
    "playbook status",
    "npx --no playbook status",
    "npx playbook status",
    "npx playbook-kit status",
    "npm exec playbook -- status",
    "node node_modules/playbook-kit/dist/cli.mjs status",
    "node /elsewhere/.claude/playbook/runtime/dist/cli.mjs status",
  ])("runtime setup refuses %s with the spelling that works", (command) => {
    expect(problem(command, RUNTIME)).toContain(
      "Next: run `node .claude/playbook/runtime/dist/cli.mjs status`",
    );
  });

  it("names the spelling from the agent's folder", () => {
    expect(
      problem("playbook verify p1.1", RUNTIME, {
        projectDir: "/p",
        cwd: "/p/src/a",
      }),
    ).toContain(
      "Next: run `node ../../.claude/playbook/runtime/dist/cli.mjs verify p1.1`",
    );
  });

  it.each([
    "npx --no playbook status",
    "npx --no-install playbook status",
    "node_modules/.bin/playbook status",
    "node node_modules/playbook-kit/dist/cli.mjs status",
  ])("npm setup accepts %s", (command) => {
    expect(problem(command, NPM)).toBeNull();
  });

  it("npm setup refuses a bare npx, which may fetch the registry's unrelated `playbook`", () => {
    expect(problem("npx playbook status", NPM)).toMatch(
      /may fetch the registry's unrelated `playbook` package\. Next: run `npx --no playbook status`/,
    );
    expect(problem("playbook status", NPM)).toContain(
      "Next: run `npx --no playbook status`",
    );
  });

  it("is not judged for a project's own cli.mjs, nor in a checkout", () => {
    const argv = ["node", "scripts/cli.mjs", "build"];
    expect(
      spellingProblem(argv, playbookArgs(argv) ?? [], RUNTIME, ROOT),
    ).toBeNull();
    const call = ["npx", "playbook", "status"];
    expect(
      spellingProblem(
        call,
        ["status"],
        { kind: "checkout", cli: "node /x/cli.mjs" },
        ROOT,
      ),
    ).toBeNull();
  });
});
