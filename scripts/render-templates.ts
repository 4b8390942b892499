// Renders every shipped template with sample answers into a folder and checks each file's frontmatter, so the
// content can be previewed while it is written: `tsx scripts/render-templates.ts --lang ja --toolstack C --out DIR`.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import matter from "gray-matter";
import type { InitAnswers } from "../src/core/scaffold/answers.ts";
import {
  AGENT_TOOLS,
  claudeBlockTemplate,
  planTemplateTargets,
} from "../src/core/scaffold/template-catalogue.ts";
import { createRenderer } from "../src/render/render-template.ts";
import { toTemplateContext } from "../src/render/template-context.ts";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    lang: { type: "string", default: "en" },
    toolstack: { type: "string", default: "A" },
    out: { type: "string", default: join(root, ".render-preview") },
  },
});
const answers: InitAnswers = {
  lang: values.lang as InitAnswers["lang"],
  toolstack: values.toolstack as InitAnswers["toolstack"],
  projectName: "acme-web",
  testCommand: "npm test",
  lintCommand: "npm run lint",
  defaultBranch: "main",
  setup: "npm",
  githubRepository: "acme/web",
  cli: "npx --no playbook",
  install: "npm install",
  hookPath: "${CLAUDE_PROJECT_DIR}/node_modules/playbook-kit/dist/hook.cjs",
};
const render = createRenderer();
const context = toTemplateContext(answers);
const problems: string[] = [];
const targets = [
  ...planTemplateTargets(answers),
  { source: claudeBlockTemplate(answers.lang), target: "CLAUDE.block.md" },
];
for (const { source, target } of targets) {
  const path = join(root, source);
  if (!existsSync(path)) {
    problems.push(`${source}: missing`);
    continue;
  }
  let text: string;
  try {
    text = render(source, readFileSync(path, "utf8"), context);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
    continue;
  }
  const out = join(values.out, target);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  if (
    !target.startsWith(".claude/agents/") &&
    !target.startsWith(".claude/skills/") &&
    !target.startsWith(".claude/commands/")
  )
    continue;
  let data: Record<string, unknown>;
  try {
    data = matter(text).data;
  } catch (error) {
    problems.push(`${target}: frontmatter does not parse: ${String(error)}`);
    continue;
  }
  if (typeof data["description"] !== "string" || data["description"] === "")
    problems.push(`${target}: no description`);
  const agent = /^\.claude\/agents\/(.+)\.md$/.exec(target)?.[1];
  if (agent) {
    if (data["name"] !== agent)
      problems.push(`${target}: name is not ${agent}`);
    const tools = (typeof data["tools"] === "string" ? data["tools"] : "")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    const expected = AGENT_TOOLS[agent as keyof typeof AGENT_TOOLS];
    if (JSON.stringify(tools) !== JSON.stringify(expected))
      problems.push(
        `${target}: tools are ${tools.join(", ")}, expected ${expected.join(", ")}`,
      );
  }
  const skill = /^\.claude\/skills\/(.+)\/SKILL\.md$/.exec(target)?.[1];
  if (skill && data["name"] !== skill)
    problems.push(`${target}: name is not ${skill}`);
}
process.stdout.write(
  `rendered ${targets.length} templates (${answers.lang}, toolstack ${answers.toolstack}) into ${values.out}\n`,
);
if (problems.length > 0) {
  process.stdout.write(`${problems.join("\n")}\n`);
  process.exitCode = 1;
}
