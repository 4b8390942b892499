import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  setupOfDist,
  shellWord,
  spellCommands,
} from "../../../../src/core/scaffold/cli-spelling.ts";
import { githubWorkflow } from "../../../../src/core/scaffold/ci-workflow.ts";
import {
  hookLoaderSource,
  readLoaderChecks,
  RUNTIME_DIST_EXPRESSION,
} from "../../../../src/core/scaffold/hook-loader.ts";

const RUNTIME = {
  kind: "runtime" as const,
  cli: "node .claude/playbook/runtime/dist/cli.mjs",
};

describe("setupOfDist", () => {
  it.each([
    ["/p/node_modules/playbook-kit/dist", "npm", "npx --no playbook"],
    ["/p/.claude/playbook/runtime/dist", "runtime", RUNTIME.cli],
    ["/p/.claude/playbook/runtime/dist/", "runtime", RUNTIME.cli],
    [
      "/home/dev/playbook/dist",
      "checkout",
      "node /home/dev/playbook/dist/cli.mjs",
    ],
    [
      "/q/node_modules/playbook-kit/dist",
      "checkout",
      "node /q/node_modules/playbook-kit/dist/cli.mjs",
    ],
    ["/my dev/pb/dist", "checkout", "node '/my dev/pb/dist/cli.mjs'"],
  ])("%s in /p is the %s setup, spelled %s", (dist, kind, cli) => {
    expect(setupOfDist("/p", dist)).toEqual({ kind, cli });
  });

  it("is the plugin setup when Claude Code started the hook from a plugin, even in the project's node_modules", () => {
    expect(
      setupOfDist(
        "/p",
        "/p/node_modules/playbook-kit/dist",
        "/p/node_modules/playbook-kit",
      ),
    ).toEqual({ kind: "plugin", cli: "npx -y playbook-kit" });
  });
});

describe("spellCommands", () => {
  it("spells each command that starts a code span as the setup runs it", () => {
    expect(
      spellCommands(
        "Next: run `playbook verify p1.1`, then `npx --no playbook status`; `playbook-kit` and `playbook's` stay.",
        RUNTIME,
      ),
    ).toBe(
      `Next: run \`${RUNTIME.cli} verify p1.1\`, then \`${RUNTIME.cli} status\`; \`playbook-kit\` and \`playbook's\` stay.`,
    );
    expect(
      spellCommands("run `playbook doctor`", {
        kind: "npm",
        cli: "npx --no playbook",
      }),
    ).toBe("run `npx --no playbook doctor`");
  });

  it("leaves a checkout's and a plugin's messages as they are", () => {
    const text = "run `npx --no playbook verify p1`";
    expect(
      spellCommands(text, { kind: "checkout", cli: "node /x/cli.mjs" }),
    ).toBe(text);
    expect(
      spellCommands(text, { kind: "plugin", cli: "npx -y playbook-kit" }),
    ).toBe(text);
  });

  it("keeps JSON valid: a quoted path is quoted with single quotes", () => {
    expect(shellWord("/a b/c's")).toBe(`'/a b/c'\\''s'`);
    const json = JSON.stringify({ hint: "run `playbook doctor`" });
    expect((): unknown =>
      JSON.parse(
        spellCommands(json, {
          kind: "runtime",
          cli: `node ${shellWord("/a b/cli.mjs")}`,
        }),
      ),
    ).not.toThrow();
  });
});

describe("the loader of the runtime setup", () => {
  const source = hookLoaderSource({
    setup: "runtime",
    distExpression: RUNTIME_DIST_EXPRESSION,
    hashes: { "hook.cjs": "a", "hook-main.cjs": "b", "hook-session.cjs": "c" },
    version: "1.2.3",
    cli: RUNTIME.cli,
  });

  it("names its bundles relative to itself and is read back as the runtime setup", () => {
    expect(readLoaderChecks(source)).toEqual({
      setup: "runtime",
      dist: null,
      hashes: {
        "hook.cjs": "a",
        "hook-main.cjs": "b",
        "hook-session.cjs": "c",
      },
      version: "1.2.3",
    });
    expect(source).not.toMatch(/"\/(?:tmp|home|root|Users)\//);
  });

  it("tells a fresh clone the one command that installs the setup's version", () => {
    expect(source).toContain("npx playbook-kit@1.2.3 install");
    expect(source).not.toContain("npm install");
  });
});

describe("the CI workflow of the runtime setup", () => {
  const text = githubWorkflow({
    setup: "runtime",
    version: "1.2.3",
    testCommand: "python3 -m pytest -q",
  });
  const steps = (
    parse(text) as {
      jobs: {
        rerun: { steps: { name?: string; run?: string; uses?: string }[] };
      };
    }
  ).jobs.rerun.steps;

  it("installs the version the base names and re-proves with its copy", () => {
    expect(steps.map((s) => s.run ?? s.uses)).toEqual(
      expect.arrayContaining([
        "npx playbook-kit@1.2.3 install",
        `${RUNTIME.cli} check --rerun --pr ../pr --base "\${{ github.event.pull_request.base.sha }}"`,
      ]),
    );
    expect(text).not.toContain("npm ci");
  });

  it("gives pytest and the pull request's requirements as wheels only", () => {
    const python = steps.find((s) => s.run?.includes("pip install"));
    expect(python?.run).toContain("--only-binary=:all: pytest");
    expect(steps.some((s) => s.uses === "actions/setup-python@v5")).toBe(true);
  });
});
