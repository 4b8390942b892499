import { readFileSync } from "node:fs";
import { join } from "node:path";
import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { parseProtectedRules } from "../../src/core/guards/protected-rules.ts";
import { parsePlaybook } from "../../src/core/parse/parse-playbook.ts";
import { parseState } from "../../src/core/parse/parse-state.ts";
import { validatePlaybook } from "../../src/core/validate/validate-playbook.ts";
import type { InitAnswers } from "../../src/core/scaffold/answers.ts";
import {
  AGENT_TOOLS,
  AGENTS,
  claudeBlockTemplate,
  COMMANDS,
  planTemplateTargets,
  SKILLS,
} from "../../src/core/scaffold/template-catalogue.ts";
import { toQuotedValidation } from "../../src/core/scaffold/project-checks.ts";
import { createRenderer } from "../../src/render/render-template.ts";
import { toTemplateContext } from "../../src/render/template-context.ts";

const root = join(import.meta.dirname, "..", "..");

/** Frontmatter keys Claude Code documents for subagents, skills and slash commands, in its own documentation. */
const AGENT_KEYS = new Set([
  "name",
  "description",
  "tools",
  "disallowedTools",
  "model",
  "permissionMode",
  "maxTurns",
  "skills",
  "mcpServers",
  "hooks",
  "memory",
  "background",
  "effort",
  "isolation",
  "color",
  "initialPrompt",
]);
const SKILL_KEYS = new Set([
  "name",
  "description",
  "when_to_use",
  "argument-hint",
  "arguments",
  "disable-model-invocation",
  "user-invocable",
  "allowed-tools",
  "disallowed-tools",
  "model",
  "effort",
  "context",
  "agent",
  "background",
  "hooks",
  "paths",
  "shell",
  "metadata",
  "license",
  "compatibility",
]);

const combos = (["en", "ja"] as const).flatMap((lang) =>
  (["A", "B", "C"] as const).map((toolstack) => ({ lang, toolstack })),
);

function answersFor(
  lang: InitAnswers["lang"],
  toolstack: InitAnswers["toolstack"],
  blanks = false,
): InitAnswers {
  return {
    lang,
    toolstack,
    projectName: "acme-web",
    testCommand: blanks ? "" : "npm test",
    lintCommand: blanks ? "" : "npm run lint",
    defaultBranch: "main",
    setup: "npm",
    githubRepository: blanks ? null : "acme/web",
    cli: "npx --no playbook",
    install: "npm install",
    hookPath: "${CLAUDE_PROJECT_DIR}/node_modules/playbook-kit/dist/hook.cjs",
  };
}

function renderAll(answers: InitAnswers): Map<string, string> {
  const render = createRenderer();
  const context = toTemplateContext(answers);
  const out = new Map<string, string>();
  for (const { source, target } of [
    ...planTemplateTargets(answers),
    { source: claudeBlockTemplate(answers.lang), target: "CLAUDE.block.md" },
  ])
    out.set(
      target,
      render(source, readFileSync(join(root, source), "utf8"), context),
    );
  return out;
}

describe.each(combos)(
  "rendered content, $lang, toolstack $toolstack",
  ({ lang, toolstack }) => {
    const files = renderAll(answersFor(lang, toolstack));

    it("ships codex-delegate only with Codex, and every other agent, skill and command", () => {
      const agents = [...files.keys()].filter((p) =>
        p.startsWith(".claude/agents/"),
      );
      expect(agents).toHaveLength(toolstack === "A" ? 5 : 6);
      expect(files.has(".claude/agents/codex-delegate.md")).toBe(
        toolstack !== "A",
      );
      for (const skill of SKILLS)
        expect(files.has(`.claude/skills/${skill}/SKILL.md`)).toBe(true);
      for (const command of COMMANDS)
        expect(files.has(`.claude/commands/${command}.md`)).toBe(true);
    });

    it("agents have Claude Code's frontmatter: their name, a description, exactly their tools", () => {
      for (const agent of AGENTS) {
        const text = files.get(`.claude/agents/${agent}.md`);
        if (text === undefined) continue;
        const { data, content } = matter(text);
        expect(
          Object.keys(data).every((k) => AGENT_KEYS.has(k)),
          agent,
        ).toBe(true);
        expect(data["name"]).toBe(agent);
        expect(typeof data["description"]).toBe("string");
        expect((data["description"] as string).length).toBeGreaterThan(20);
        expect((data["tools"] as string).split(", ")).toEqual(
          AGENT_TOOLS[agent],
        );
        // Claude Code ignores these in plugin agents, and playbook's guards do the enforcing.
        for (const key of ["hooks", "permissionMode", "mcpServers"])
          expect(data[key], `${agent} ${key}`).toBeUndefined();
        expect(content.trim().length).toBeGreaterThan(500);
      }
    });

    it("skills and commands have documented frontmatter, a short description and no 1-based $1", () => {
      for (const [path, text] of files) {
        const skill = /^\.claude\/skills\/(.+)\/SKILL\.md$/.exec(path)?.[1];
        const command = /^\.claude\/commands\/(.+)\.md$/.exec(path)?.[1];
        if (!skill && !command) continue;
        const { data, content } = matter(text);
        expect(
          Object.keys(data).every((k) => SKILL_KEYS.has(k)),
          path,
        ).toBe(true);
        if (skill) expect(data["name"]).toBe(skill);
        const description = data["description"] as string;
        expect(description.length, path).toBeGreaterThan(10);
        expect([...description].length, path).toBeLessThan(300);
        expect(data["allowed-tools"], path).toBeUndefined();
        expect(content, path).not.toMatch(/\$[1-9]\b/);
      }
    });

    it("leaves no template syntax behind and names the CLI as the project calls it", () => {
      for (const [path, text] of files) {
        expect(text, path).not.toMatch(/\{\{|\}\}/);
        expect(text, path).not.toContain("undefined");
      }
      expect(files.get(".claude/agents/reviewer.md")).toContain(
        "npx --no playbook review approve",
      );
    });

    it("protected-files.txt parses without a diagnostic", () => {
      const parsed = parseProtectedRules(
        files.get(".claude/protected-files.txt") ?? "",
        ".claude/protected-files.txt",
      );
      expect(parsed.diagnostics).toEqual([]);
      expect(parsed.rules.length).toBeGreaterThan(3);
    });

    it("the CLAUDE.md block starts below the user's title and carries no markers of its own", () => {
      const block = files.get("CLAUDE.block.md") ?? "";
      expect(block).not.toMatch(/^# /m);
      expect(block).not.toContain("playbook:begin");
      expect(block).toMatch(/^## /m);
    });
  },
);

describe("rendered content with nothing detected", () => {
  it.each(combos)(
    "$lang $toolstack renders without a test command, lint command or GitHub",
    ({ lang, toolstack }) => {
      for (const [path, text] of renderAll(answersFor(lang, toolstack, true))) {
        expect(text, path).not.toMatch(/\{\{|\}\}|(?<!`)``(?![`\s])/);
        expect(text, path).not.toContain("undefined");
      }
    },
  );
});

describe("shipped plan templates", () => {
  it.each(["plan/template/state-initial.md"])(
    "%s parses without a diagnostic",
    (path) => {
      expect(
        parseState(readFileSync(join(root, path), "utf8"), path).diagnostics,
      ).toEqual([]);
    },
  );

  it("the skeleton of playbook new parses, and its only problems are the blanks the pm fills", () => {
    for (const lang of ["en", "ja"]) {
      const source = `templates/${lang}/playbook-skeleton.md.hbs`;
      const text = createRenderer()(
        source,
        readFileSync(join(root, source), "utf8"),
        {
          name: "login-form",
          branch: "feat/login-form",
          date: "2026-11-23",
          worker: "claudecode",
          cli: "playbook",
          consistency: toQuotedValidation(""),
        },
      );
      const file = "plan/playbook-login-form.md";
      const parsed = parsePlaybook(text, file);
      const codes = new Set(
        [...parsed.diagnostics, ...validatePlaybook(parsed.value, file)].map(
          (d) => d.code,
        ),
      );
      expect([...codes].sort()).toEqual([
        "context-missing",
        "criterion-missing",
        "done-when-missing",
        "goal-summary-missing",
        "validation-text-missing",
      ]);
    }
  });

  it("the skeleton's consistency validation runs the project's own checks, quoted so that any command reads back as written", () => {
    const checks = 'python3 -m pytest -k "not slow" && ruff check .';
    for (const lang of ["en", "ja"]) {
      const source = `templates/${lang}/playbook-skeleton.md.hbs`;
      const text = createRenderer()(
        source,
        readFileSync(join(root, source), "utf8"),
        {
          name: "login-form",
          branch: "feat/login-form",
          date: "2026-11-23",
          worker: "claudecode",
          cli: "playbook",
          consistency: toQuotedValidation(checks),
        },
      );
      const parsed = parsePlaybook(text, "plan/playbook-login-form.md");
      const subtask = parsed.value.phases[0]?.subtasks[0];
      expect(subtask?.validations.consistency).toMatchObject({
        kind: "automated",
        text: checks,
      });
    }
  });
});
