import {
  EXCLUDE_BEGIN,
  EXCLUDE_END,
} from "../../../../src/core/scaffold/git-exclude-block.ts";
import { describe, expect, it } from "vitest";
import { PlaybookError } from "../../../../src/core/errors.ts";
import type { InitAnswers } from "../../../../src/core/scaffold/answers.ts";
import { MANIFEST_FILE } from "../../../../src/core/scaffold/manifest.ts";
import {
  changingSteps,
  planInit,
  priorManifest,
  type InitFacts,
} from "../../../../src/core/scaffold/plan-init.ts";

const ANSWERS: InitAnswers = {
  toolstack: "A",
  lang: "en",
  projectName: "acme",
  testCommand: "npm test",
  lintCommand: "npm run lint",
  defaultBranch: "main",
  setup: "npm",
  githubRepository: null,
  cli: "npx --no playbook",
  install: "npm install",
  hookPath: "${CLAUDE_PROJECT_DIR}/node_modules/playbook-kit/dist/hook.cjs",
};

/** The planner's facts over an in-memory project: no disk is read. */
function facts(
  files: Record<string, string>,
  names: string[] = [".bashrc", ".claude/settings.json"],
): InitFacts {
  return {
    dir: "/p",
    answers: ANSWERS,
    prior: priorManifest(files[MANIFEST_FILE] ?? null),
    read: (path) => files[path] ?? null,
    packageFile: (path) =>
      path.endsWith("state-initial.md")
        ? "# State\n\n## config\n\ntoolstack: A\nroles: {}\n"
        : `package ${path}\n`,
    renderTemplate: (source) => `rendered ${source}\n`,
    loader: {
      setup: "checkout",
      distExpression: '"/dist"',
      hashes: {
        "hook.cjs": "a",
        "hook-main.cjs": "b",
        "hook-session.cjs": "c",
      },
      version: "0.0.0",
      cli: ANSWERS.cli,
    },
    schemaRef: "schema.json",
    packageVersion: "0.0.0",
    now: "2026-11-24T00:00:00.000Z",
    gitExclude: {
      path: ".git/info/exclude",
      text: files[".git/info/exclude"] ?? null,
      prefix: "",
      // As the adapter reads the disk: the names the project does not have.
      missing: names.filter((name) => files[name] === undefined),
    },
  };
}

const CHOICES = { force: false, plugin: false };

/** The project after applying `plan`'s writes over `files`. */
function applied(
  files: Record<string, string>,
  plan: ReturnType<typeof planInit>,
): Record<string, string> {
  const next = { ...files };
  for (const step of plan.steps) {
    for (const w of step.writes) next[w.path] = w.text;
    for (const r of step.removes) delete next[r];
  }
  return next;
}

describe("planInit (pure)", () => {
  it("a first install creates every file and ends with the manifest's own step", () => {
    const plan = planInit(CHOICES, facts({}));
    expect(plan.upgrade).toBe(false);
    const last = plan.steps.at(-1)!;
    expect(last).toMatchObject({ path: MANIFEST_FILE, action: "record" });
    const manifest = JSON.parse(last.writes[0]!.text) as {
      files: Record<string, string>;
    };
    expect(Object.keys(manifest.files)).toContain("state.md");
    expect(
      plan.steps.filter((s) => s.action === "create").map((s) => s.path),
    ).toEqual(
      expect.arrayContaining([
        "state.md",
        ".claude/settings.json",
        ".gitignore",
        "CLAUDE.md",
      ]),
    );
  });

  it("planning again over what it wrote changes nothing but the manifest", () => {
    const once = applied({}, planInit(CHOICES, facts({})));
    const again = planInit(CHOICES, facts(once));
    expect(again.upgrade).toBe(true);
    expect(changingSteps(again)).toEqual([]);
  });

  it("keeps a file the user changed, and with force writes ours beside it", () => {
    const once = applied({}, planInit(CHOICES, facts({})));
    const path = ".claude/agents/reviewer.md";
    expect(once[path]).toBeDefined();
    const mine = { ...once, [path]: "mine\n" };
    const kept = planInit(CHOICES, facts(mine));
    expect(kept.steps.find((s) => s.path === path)).toMatchObject({
      action: "keep-modified",
      writes: [],
    });
    const forced = planInit({ ...CHOICES, force: true }, facts(mine));
    expect(forced.steps.find((s) => s.path === path)?.writes).toEqual([
      {
        path: `${path}.new`,
        text: `rendered ${"templates/en/agents/reviewer.md.hbs"}\n`,
      },
    ]);
  });

  it("keeps the sandbox's mount points out of `git add -A` in a block of .git/info/exclude, refreshed and kept apart from git's own lines; a name init writes is no mount point", () => {
    const own = "# git's own comment\n*.swp\n";
    const once = applied(
      { ".git/info/exclude": own },
      planInit(CHOICES, facts({ ".git/info/exclude": own })),
    );
    expect(once[".git/info/exclude"]).toBe(
      `${own}${EXCLUDE_BEGIN}\n/.bashrc\n${EXCLUDE_END}\n`,
    );
    expect(changingSteps(planInit(CHOICES, facts(once)))).toEqual([]);
    const refreshed = applied(
      once,
      planInit(CHOICES, facts(once, [".bashrc", ".vscode"])),
    );
    expect(refreshed[".git/info/exclude"]).toBe(
      `${own}${EXCLUDE_BEGIN}\n/.bashrc\n/.vscode\n!/.vscode/\n${EXCLUDE_END}\n`,
    );
    const none = applied(refreshed, planInit(CHOICES, facts(refreshed, [])));
    expect(none[".git/info/exclude"]).toBe(own);
  });

  it("refuses a settings.json Claude Code could not read either, naming its line", () => {
    const error = (() => {
      try {
        planInit(CHOICES, facts({ ".claude/settings.json": "{\n  oops\n" }));
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PlaybookError);
    expect((error as PlaybookError).message).toMatch(
      /^playbook cannot merge its settings into \.claude\/settings\.json: /,
    );
    expect((error as PlaybookError).location).toEqual({
      file: ".claude/settings.json",
      line: 2,
      column: 3,
    });
  });

  it("refuses a manifest it cannot read, rather than guessing which files are ours", () => {
    expect(() => priorManifest("{not json")).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(
          /playbook-manifest\.json cannot be read/,
        ) as string,
        location: { file: ".claude/playbook-manifest.json" },
      }) as Error,
    );
  });
});
