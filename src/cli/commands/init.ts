import { resolve } from "node:path";
import { defineCommand, type ArgsDef } from "citty";
import { findPackageRoot } from "../../adapters/package-root.ts";
import { installCommand } from "../../core/scaffold/setup-kind.ts";
import { createInitDeps } from "../../app/deps.ts";
import { runInit } from "../../app/scaffold/run-init.ts";
import {
  changingSteps,
  type InitPlan,
  type InitStep,
} from "../../core/scaffold/plan-init.ts";
import {
  LANGUAGES,
  TOOLSTACKS,
  type Language,
  type Toolstack,
} from "../../core/scaffold/answers.ts";
import { CI_PROVIDERS } from "../../core/scaffold/ci-workflow.ts";
import { PlaybookError } from "../../core/errors.ts";
import { createColors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { askChoice, askText, askYesNo, canAsk } from "../prompt.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

/** What each choice of init's questions means, shown beside it. */
const CHOICE_HINTS: Record<string, string> = {
  A: "Claude Code only",
  B: "+ Codex as worker",
  C: "+ Codex and CodeRabbit as reviewer",
  en: "English",
  ja: "日本語",
};

const initArgs = {
    ...sharedArgs,
    dir: {
      type: "positional",
      description:
        "The project directory (default: --cwd or the current directory)",
      required: false,
    },
    toolstack: {
      type: "string",
      description: "A (Claude Code), B (+ Codex), C (+ Codex and CodeRabbit)",
      valueHint: "A|B|C",
    },
    lang: {
      type: "string",
      description: "Language of the agents, skills and rules",
      valueHint: "en|ja",
    },
    yes: {
      type: "boolean",
      description: "Use the detected answers and apply without asking",
      default: false,
    },
    "dry-run": {
      type: "boolean",
      description: "Print the plan; change nothing",
      default: false,
    },
    force: {
      type: "boolean",
      description: "Write ours beside files you changed, as <file>.new",
      default: false,
    },
    plugin: {
      type: "boolean",
      description:
        "The Claude Code plugin brings the hooks, agents, skills and commands: write only the project files",
      default: false,
    },
    ci: {
      type: "string",
      description:
        "Also write a CI workflow that re-runs the validations of every pull request",
      valueHint: "github",
    },
  } as const satisfies ArgsDef;

export const initCommand = defineCommand({
  meta: {
    name: "init",
    description:
      "Install playbook into a repository, or upgrade it: agents, skills, commands, rules, hooks, state.md, CLAUDE.md",
  },
  args: initArgs,
  run: ({ args }) => runInitCommand(args, false),
});

/** `playbook upgrade`: init for a project set up already, with its answers kept and no question asked. */
export const upgradeCommand = defineCommand({
  meta: {
    name: "upgrade",
    description:
      "Upgrade playbook's setup in a repository set up already to this playbook-kit, keeping your answers and your changes",
  },
  args: {
    ...sharedArgs,
    dir: initArgs.dir,
    "dry-run": initArgs["dry-run"],
    force: initArgs.force,
  },
  run: ({ args }) =>
    runInitCommand(
      {
        ...args,
        yes: true,
        plugin: false,
        toolstack: undefined,
        lang: undefined,
        ci: undefined,
      },
      true,
    ),
});

interface InitArgs {
  cwd?: string | undefined;
  json: boolean;
  dir?: string | undefined;
  toolstack?: string | undefined;
  lang?: string | undefined;
  yes: boolean;
  "dry-run": boolean;
  force: boolean;
  plugin: boolean;
  ci?: string | undefined;
}

async function runInitCommand(args: InitArgs, upgrade: boolean): Promise<void> {
    const toolstack = pick(args.toolstack, TOOLSTACKS, "--toolstack");
    const lang = pick(args.lang, LANGUAGES, "--lang");
    const ci = pick(args.ci, CI_PROVIDERS, "--ci");
    const dir =
      args.dir === undefined ? projectRoot(args, { here: true }) : resolve(String(args.dir));
    const interactive = !args.yes && !args.json && canAsk();
    const c = createColors();
    const out = (text: string) => process.stdout.write(`${text}\n`);
    const { plan, applied, boundaryNotes } = await runInit(
      dir,
      {
        toolstack,
        lang,
        force: args.force,
        plugin: args.plugin,
        ci,
        dryRun: args["dry-run"],
        requireSetup: upgrade,
      },
      {
        ...createInitDeps(findPackageRoot()),
        ask: interactive
          ? (q) =>
              q.choices
                ? askChoice(
                    q.text,
                    q.choices.map((value) => ({
                      value,
                      hint: CHOICE_HINTS[value] ?? "",
                    })),
                    q.default,
                  )
                : askText(q.text, q.default)
          : null,
        show: (planned) => {
          if (!args.json) printPlan(planned, c, out);
        },
        confirm: () =>
          interactive
            ? askYesNo("Apply these changes?", true)
            : Promise.resolve(true),
      },
    );
    if (args.json) {
      out(
        JSON.stringify(
          {
            dir: plan.dir,
            upgrade: plan.upgrade,
            answers: plan.answers,
            steps: plan.steps.map(({ path, action, detail }) => ({
              path,
              action,
              detail,
            })),
            notes: [...plan.notes, ...boundaryNotes],
            applied: applied !== "none",
          },
          null,
          2,
        ),
      );
      return;
    }
    if (args["dry-run"]) {
      out(c.dim("dry run: nothing was written"));
      return;
    }
    for (const note of boundaryNotes) out(`${c.yellow("note")}: ${note}`);
    if (applied === "record") {
      out("Everything is up to date.");
      return;
    }
    if (applied === "none") {
      out("Nothing was written.");
      return;
    }
    const changing = changingSteps(plan);
    const kept = plan.steps.filter(
      (s) =>
        s.action === "keep-modified" ||
        s.action === "conflict" ||
        s.action === "keep-stale",
    ).length;
    const written = `${c.green("done")}: ${changing.length} change${changing.length === 1 ? "" : "s"} written${kept > 0 ? `, ${kept} file${kept === 1 ? "" : "s"} of yours kept` : ""}.`;
    if (upgrade) {
      out(
        `${written} Next: commit the upgrade (\`git add -A && git commit -m "Upgrade playbook"\`); each teammate runs \`${installCommand(plan.answers.setup, findPackageRoot().version)}\` after pulling it. \`${plan.answers.cli} doctor\` checks the setup.`,
      );
      return;
    }
    out(
      `${written} Next: commit the setup on ${plan.answers.defaultBranch} (\`git add -A && git commit -m "Set up playbook"\`), then start Claude Code here and type /playbook-init followed by what you want done; \`${plan.answers.cli} doctor\` checks the setup.`,
    );
  }

/** The plan as the user reads it: one line per file that changes or is kept, then the notes. */
function printPlan(
  plan: InitPlan,
  c: ReturnType<typeof createColors>,
  out: (text: string) => void,
): void {
  out(
    `${c.bold(plan.upgrade ? "playbook init (upgrade)" : "playbook init")} ${toTerminalText(plan.dir)}: toolstack ${plan.answers.toolstack}, ${plan.answers.lang}, tests \`${plan.answers.testCommand || "none"}\`, lint \`${plan.answers.lintCommand || "none"}\``,
  );
  for (const step of plan.steps) {
    if (step.action === "unchanged" || step.action === "record") continue;
    out(
      `  ${colorAction(c, step.action)} ${toTerminalText(step.path).padEnd(48)} ${c.dim(step.detail)}`,
    );
  }
  const unchanged = plan.steps.filter((s) => s.action === "unchanged").length;
  if (unchanged > 0) out(c.dim(`  ${unchanged} files already up to date`));
  for (const note of plan.notes)
    out(`${c.yellow("note")} ${toTerminalText(note)}`);
}

function pick<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T | null {
  if (value === undefined) return null;
  const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (match === undefined)
    throw new PlaybookError(
      "E_USAGE",
      `Unexpected ${flag} ${value}, expected ${allowed.join(", ")}.`,
      { hint: "Run `playbook init --help`." },
    );
  return match;
}

function colorAction(
  c: ReturnType<typeof createColors>,
  action: InitStep["action"],
): string {
  const label = action.padEnd(13);
  if (action === "create" || action === "update" || action === "merge")
    return c.green(label);
  if (action === "remove") return c.yellow(label);
  if (
    action === "keep-modified" ||
    action === "conflict" ||
    action === "keep-stale"
  )
    return c.yellow(label);
  return c.dim(label);
}

export type { Language, Toolstack };
