/** The languages the shipped prompts are written in. */
export const LANGUAGES = ["en", "ja"] as const;
export type Language = (typeof LANGUAGES)[number];

export { TOOLSTACKS, type Toolstack } from "../model/state.ts";
import type { Toolstack } from "../model/state.ts";
import type { SetupKind } from "./setup-kind.ts";

/** What `playbook init` asks (or detects), and everything the templates are rendered with. */
export interface InitAnswers {
  toolstack: Toolstack;
  lang: Language;
  /** The project's name, shown in prompts (the folder or package name). */
  projectName: string;
  /** The command that runs the tests, or "" when none was found. */
  testCommand: string;
  /** The command that runs the linter (or type checker), or "" when none was found. */
  lintCommand: string;
  defaultBranch: string;
  /** `owner/name` when the `origin` remote is on GitHub, else null. */
  githubRepository: string | null;
  /** How the project runs playbook (setup-kind.ts), which decides `cli` and `hookPath`. */
  setup: SetupKind;
  /** How prompts tell the agent to run the CLI (`cliSpelling`): `npx --no playbook` for a project install. */
  cli: string;
  /** The one command that gives a fresh clone its playbook (`installCommand`): `npm install`, or npx's. */
  install: string;
  /** The hook bundle the committed loader runs (in node_modules, the runtime copy, or an absolute path for a checkout). */
  hookPath: string;
}

/** The roles of a toolstack (docs/playbook-format.md): who orchestrates, who writes the code, who reviews, who decides. */
export function rolesFor(toolstack: Toolstack): {
  orchestrator: string;
  worker: string;
  reviewer: string;
  human: string;
} {
  return {
    orchestrator: "claudecode",
    worker: toolstack === "A" ? "claudecode" : "codex",
    reviewer: toolstack === "C" ? "coderabbit" : "claudecode",
    human: "user",
  };
}
