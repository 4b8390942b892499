import { rolesFor, type InitAnswers } from "../core/scaffold/answers.ts";
import {
  toChecksCommand,
  toTestExample,
} from "../core/scaffold/project-checks.ts";

/**
 * Everything a template may use. Templates render in strict mode, so every name here is always defined (strings
 * may be empty; test them with `{{#if}}`), and a name that is not here fails the render with the template's path.
 */
export interface TemplateContext {
  lang: "en" | "ja";
  ja: boolean;
  toolstack: "A" | "B" | "C";
  /** Toolstack B or C: Codex does the implementation through the codex-delegate agent. */
  codex: boolean;
  /** Toolstack C: CodeRabbit reviews pull requests. */
  coderabbit: boolean;
  projectName: string;
  cli: string;
  /** The command that installs playbook in a fresh clone (`npm install`, `npx playbook-kit@<version> install`). */
  install: string;
  testCommand: string;
  lintCommand: string;
  /** The tests, then the linter, as one command ("" when neither is known): the `consistency` validation. */
  checks: string;
  /** The test runner narrowed to one criterion's tests, for `technical` ("" when it cannot be). */
  testExample: string;
  defaultBranch: string;
  github: boolean;
  githubRepository: string;
  roles: {
    orchestrator: string;
    worker: string;
    reviewer: string;
    human: string;
  };
}

export function toTemplateContext(answers: InitAnswers): TemplateContext {
  return {
    lang: answers.lang,
    ja: answers.lang === "ja",
    toolstack: answers.toolstack,
    codex: answers.toolstack !== "A",
    coderabbit: answers.toolstack === "C",
    projectName: answers.projectName,
    cli: answers.cli,
    install: answers.install,
    testCommand: answers.testCommand,
    lintCommand: answers.lintCommand,
    checks: toChecksCommand(answers.testCommand, answers.lintCommand),
    testExample: toTestExample(answers.testCommand),
    defaultBranch: answers.defaultBranch,
    github: answers.githubRepository !== null,
    githubRepository: answers.githubRepository ?? "",
    roles: rolesFor(answers.toolstack),
  };
}

/** What the skeleton of `playbook new` is rendered with. */
export interface SkeletonContext {
  name: string;
  branch: string;
  date: string;
  worker: string;
  cli: string;
  /** The `consistency` validation, quoted: the project's checks as init recorded them, or an empty command. */
  consistency: string;
}
