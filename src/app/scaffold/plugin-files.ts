import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { InitAnswers } from "../../core/scaffold/answers.ts";
import { HOOK_EVENTS, hookHandler } from "../../core/scaffold/hook-settings.ts";
import { cliSpelling, installCommand } from "../../core/scaffold/setup-kind.ts";
import { planTemplateTargets } from "../../core/scaffold/template-catalogue.ts";
import { createRenderer } from "../../render/render-template.ts";
import { toTemplateContext } from "../../render/template-context.ts";

/** The plugin's answers: English, Claude Code only; the CLI through npx, since a plugin puts no bin on PATH. */
const PLUGIN_ANSWERS: InitAnswers = {
  lang: "en",
  toolstack: "A",
  projectName: "this project",
  testCommand: "",
  lintCommand: "",
  defaultBranch: "main",
  githubRepository: null,
  setup: "plugin",
  cli: cliSpelling("plugin"),
  install: installCommand("plugin", ""),
  hookPath: "${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs",
};

const DESCRIPTION =
  "Plan before editing, prove before done, hand over as a merged pull request: reviewed playbooks, guards on every tool call, records the agent cannot forge.";

/**
 * The Claude Code plugin layout of the package (the other way to install, beside `playbook init`): manifest,
 * marketplace entry, hooks through `${CLAUDE_PLUGIN_ROOT}`, and the agents, skills and commands rendered in English
 * for toolstack A. Paths are relative to the package root. `hooks/hooks.json` is loaded by convention, so the
 * manifest does not name it (naming it too makes Claude Code load it twice).
 */
export function renderPluginFiles(
  packageRoot: string,
  version: string,
): Map<string, string> {
  const files = new Map<string, string>();
  const json = (path: string, value: unknown) =>
    files.set(path, `${JSON.stringify(value, null, 2)}\n`);
  json(".claude-plugin/plugin.json", {
    name: "playbook",
    displayName: "playbook",
    version,
    description: DESCRIPTION,
    author: { name: "playbook-kit developers" },
    license: "MIT",
    keywords: ["playbook", "planning", "hooks", "guards", "pull-request"],
  });
  json(".claude-plugin/marketplace.json", {
    name: "playbook-kit",
    owner: { name: "playbook-kit developers" },
    description: "The playbook plugin for Claude Code.",
    plugins: [
      {
        name: "playbook",
        source: { source: "npm", package: "playbook-kit", version },
        description: DESCRIPTION,
        category: "workflow",
      },
    ],
  });
  json("hooks/hooks.json", {
    description:
      "playbook's guards and session events; the project needs state.md (`npx -y playbook-kit init --plugin`).",
    hooks: Object.fromEntries(
      HOOK_EVENTS.map(({ event, timeout }) => [
        event,
        [{ hooks: [hookHandler(PLUGIN_ANSWERS.hookPath, event, timeout)] }],
      ]),
    ),
  });
  const render = createRenderer();
  const context = toTemplateContext(PLUGIN_ANSWERS);
  for (const { source, target } of planTemplateTargets(PLUGIN_ANSWERS)) {
    const component = /^\.claude\/((?:agents|skills|commands)\/.*)$/.exec(
      target,
    )?.[1];
    if (!component) continue;
    files.set(
      component,
      render(source, readFileSync(join(packageRoot, source), "utf8"), context),
    );
  }
  return files;
}
