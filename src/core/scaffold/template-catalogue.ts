import type { InitAnswers } from "./answers.ts";

/** The subagents of docs/playbook-format.md; `codex-delegate` only with Codex (toolstack B or C). */
export const AGENTS = [
  "pm",
  "reviewer",
  "critic",
  "health-checker",
  "setup-guide",
  "codex-delegate",
] as const;

export const SKILLS = [
  "playbook-init",
  "golden-path",
  "understanding-check",
  "crit",
  "post-loop",
  "quality-assurance",
  "session-manager",
  "git-workflow",
] as const;

/**
 * The slash commands that are not skills. docs/playbook-format.md also names `/playbook-init` and `/crit`: those are skills, and a
 * skill is a slash command of its name (a command file beside it would never run). `/review` and `/init` are Claude
 * Code built-ins, which a project command hides (`/init`) or turns into a picker (`/review`), so they ship as
 * `/playbook-review` and `/playbook-start` (docs/decisions.md).
 */
export const COMMANDS = [
  "playbook-review",
  "playbook-start",
  "lint",
  "test",
  "rollback",
  "state-rollback",
] as const;

const FRAMEWORKS = [
  "done-criteria-validation",
  "playbook-review-criteria",
  "playbook-reviewer-spec",
] as const;

const RULES = ["coding", "testing", "operations"] as const;

/** The tools each agent may use (docs/playbook-format.md); the guards enforce the rest. */
export const AGENT_TOOLS: Readonly<
  Record<(typeof AGENTS)[number], readonly string[]>
> = {
  pm: ["Read", "Write", "Edit", "Grep", "Glob", "Bash"],
  reviewer: ["Read", "Grep", "Glob", "Bash"],
  critic: ["Read", "Grep", "Glob", "Bash"],
  "health-checker": ["Read", "Grep", "Glob", "Bash"],
  "setup-guide": ["Read", "Write", "Edit", "Grep", "Glob", "Bash"],
  "codex-delegate": ["Bash", "mcp__codex__*"],
};

/** A template of the package and the project file it renders to (both `/`-separated, relative). */
export interface TemplateTarget {
  source: string;
  target: string;
}

/** Every file `init` renders for these answers, in a stable order. The CLAUDE.md block is separate (a block). */
export function planTemplateTargets(
  answers: Pick<InitAnswers, "lang" | "toolstack">,
): TemplateTarget[] {
  const { lang } = answers;
  const agents = AGENTS.filter(
    (a) => a !== "codex-delegate" || answers.toolstack !== "A",
  );
  return [
    ...agents.map((a) => ({
      source: `templates/${lang}/agents/${a}.md.hbs`,
      target: `.claude/agents/${a}.md`,
    })),
    ...SKILLS.map((s) => ({
      source: `templates/${lang}/skills/${s}/SKILL.md.hbs`,
      target: `.claude/skills/${s}/SKILL.md`,
    })),
    ...COMMANDS.map((c) => ({
      source: `templates/${lang}/commands/${c}.md.hbs`,
      target: `.claude/commands/${c}.md`,
    })),
    ...FRAMEWORKS.map((f) => ({
      source: `frameworks/${lang}/${f}.md.hbs`,
      target: `.claude/frameworks/${f}.md`,
    })),
    ...RULES.map((r) => ({
      source: `rules/${lang}/${r}.md.hbs`,
      target: `.claude/rules/${r}.md`,
    })),
    {
      source: `templates/${lang}/protected-files.txt.hbs`,
      target: ".claude/protected-files.txt",
    },
  ];
}

/** The template of the managed block of CLAUDE.md (between `<!-- playbook:begin -->` and `<!-- playbook:end -->`). */
export function claudeBlockTemplate(lang: InitAnswers["lang"]): string {
  return `templates/${lang}/claude-md-block.md.hbs`;
}
