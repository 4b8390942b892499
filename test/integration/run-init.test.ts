import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import {
  prepareInit,
  runInit,
  type InitDeps,
  type InitQuestion,
} from "../../src/app/scaffold/run-init.ts";
import { MANIFEST_FILE } from "../../src/core/scaffold/manifest.ts";
import { PlaybookError } from "../../src/core/errors.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** init's questions answered by `answers` (by key), as the terminal prompt would return them. */
function plan(answers: Partial<Record<InitQuestion["key"], string>>) {
  const p = createTempProject({ "package.json": '{"name":"acme"}\n' });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: p.dir });
  const asked: string[] = [];
  return {
    asked,
    plan: prepareInit(
      p.dir,
      { toolstack: null, lang: null, force: false, plugin: false },
      {
        packageRoot: ROOT,
        packageVersion: "0.0.0",
        now: () => new Date("2026-11-24T00:00:00Z"),
        localeLang: "en",
        locate: () => ({
          setup: "checkout",
          hookPath: "/x/hook.cjs",
          cli: "node /x/cli.mjs",
        }),
        ask: (question) => {
          asked.push(question.key);
          return Promise.resolve(answers[question.key] ?? "");
        },
      },
    ),
  };
}

describe("init's answers", () => {
  it.each([
    [
      "toolstack",
      "x",
      'Unexpected answer `x` to "Toolstack", expected one of A, B, C.',
    ],
    [
      "lang",
      "fr",
      'Unexpected answer `fr` to "Language of the agents, skills and rules", expected one of en, ja.',
    ],
  ] as const)(
    "refuses %s %s: a choice outside the list is never rendered",
    async (key, value, message) => {
      const { plan: planned } = plan({ [key]: value });
      const error = await planned.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PlaybookError);
      expect((error as PlaybookError).code).toBe("E_USAGE");
      expect((error as PlaybookError).message).toBe(message);
    },
  );

  it("an empty answer takes the detected default", async () => {
    const { plan: planned, asked } = plan({});
    const result = await planned;
    expect(asked).toEqual(["toolstack", "lang", "testCommand", "lintCommand"]);
    expect(result.answers).toMatchObject({ toolstack: "A", lang: "en" });
  });
});

function gitProject(): string {
  const p = createTempProject({ "package.json": '{"name":"acme"}\n' });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: p.dir });
  return p.dir;
}

function deps(confirm: boolean, shown: string[][] = []): InitDeps {
  return {
    packageRoot: ROOT,
    packageVersion: "0.0.0",
    now: () => new Date("2026-11-24T00:00:00Z"),
    localeLang: "en",
    locate: () => ({
      setup: "checkout",
      hookPath: "/x/hook.cjs",
      cli: "node /x/cli.mjs",
    }),
    ask: null,
    show: (plan) => shown.push(plan.steps.map((s) => s.path)),
    confirm: () => Promise.resolve(confirm),
  };
}

const OPTIONS = {
  toolstack: null,
  lang: null,
  force: false,
  plugin: false,
  dryRun: false,
};

describe("runInit: reads, plans, shows, applies", () => {
  it("a dry run shows the plan and writes nothing, not even the manifest", async () => {
    const dir = gitProject();
    const shown: string[][] = [];
    const { applied } = await runInit(
      dir,
      { ...OPTIONS, dryRun: true },
      deps(true, shown),
    );
    expect(applied).toBe("none");
    expect(shown[0]).toContain("state.md");
    expect(existsSync(join(dir, "state.md"))).toBe(false);
    expect(existsSync(join(dir, MANIFEST_FILE))).toBe(false);
  });

  it("a declined plan writes nothing", async () => {
    const dir = gitProject();
    const { applied } = await runInit(dir, OPTIONS, deps(false));
    expect(applied).toBe("none");
    expect(existsSync(join(dir, ".claude", "settings.json"))).toBe(false);
    expect(existsSync(join(dir, MANIFEST_FILE))).toBe(false);
  });

  it("applies every file, and the manifest last, as the plan's own step", async () => {
    const dir = gitProject();
    const { plan, applied } = await runInit(dir, OPTIONS, deps(true));
    expect(applied).toBe("all");
    expect(plan.steps.at(-1)?.path).toBe(MANIFEST_FILE);
    const manifest = JSON.parse(
      readFileSync(join(dir, MANIFEST_FILE), "utf8"),
    ) as { files: Record<string, string> };
    expect(Object.keys(manifest.files)).toContain("state.md");
    expect(existsSync(join(dir, "state.md"))).toBe(true);
  });

  it("a second run with nothing to change only refreshes the manifest, and keeps a file the user changed", async () => {
    const dir = gitProject();
    await runInit(dir, OPTIONS, deps(true));
    const agent = join(dir, ".claude", "agents", "reviewer.md");
    writeFileSync(agent, "mine\n");
    const { plan, applied } = await runInit(dir, OPTIONS, deps(false));
    expect(applied).toBe("record");
    expect(
      plan.steps.find((s) => s.path === ".claude/agents/reviewer.md")?.action,
    ).toBe("keep-modified");
    expect(readFileSync(agent, "utf8")).toBe("mine\n");
  });
});
