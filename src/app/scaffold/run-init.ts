import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  isGitRepository,
  readDefaultBranch,
  readRemoteUrl,
} from "../../adapters/git-facts.ts";
import { hashBundle } from "../../adapters/hash-bundle.ts";
import { PlaybookError } from "../../core/errors.ts";
import {
  LANGUAGES,
  TOOLSTACKS,
  type InitAnswers,
  type Language,
  type Toolstack,
} from "../../core/scaffold/answers.ts";
import {
  detectDefaults,
  toAlsoFoundNote,
  type DetectedDefaults,
} from "../../core/scaffold/detect-defaults.ts";
import { readToolchainFiles } from "../../core/scaffold/detect-toolchains.ts";
import {
  LOADER_CHECKED_FILES,
  distExpression,
  type LoaderInput,
} from "../../core/scaffold/hook-loader.ts";
import { NPM_PACKAGE, installCommand } from "../../core/scaffold/setup-kind.ts";
import { MANIFEST_FILE, type Manifest } from "../../core/scaffold/manifest.ts";
import {
  changingSteps,
  planInit,
  priorManifest,
  type InitChoices,
  type InitFacts,
  type InitPlan,
} from "../../core/scaffold/plan-init.ts";
import {
  readGitExcludeFile,
  readMissingMountPoints,
} from "../../adapters/git-exclude-file.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";
import { createRenderer } from "../../render/render-template.ts";
import { toTemplateContext } from "../../render/template-context.ts";
import { applySteps } from "./apply-steps.ts";
import type { LocatedHook } from "./locate-hook.ts";
import { writeRuntimeCopy } from "../../adapters/runtime-copy.ts";
import { createToolchainFolders } from "../../adapters/toolchain-folders.ts";
import { writeFailOpen } from "../../adapters/runtime-files.ts";
import { syncLocalBoundaryAfterInit } from "../workspace/apply-local-boundary.ts";

export interface InitOptions extends InitChoices {
  toolstack: Toolstack | null;
  lang: Language | null;
  /** Print the plan; change nothing. */
  dryRun: boolean;
  /** `playbook upgrade`: refuse a project that was never set up, instead of setting it up. */
  requireSetup?: boolean;
}

/** One question of the interactive init, with the detected answer as default. */
export interface InitQuestion {
  key: "toolstack" | "lang" | "testCommand" | "lintCommand";
  text: string;
  default: string;
  choices: readonly string[] | null;
}

export interface InitDeps {
  packageRoot: string;
  packageVersion: string;
  now: () => Date;
  /** Asks one question; null when init must not ask (`--yes`, no terminal). */
  ask: ((question: InitQuestion) => Promise<string>) | null;
  /** The language the user's environment suggests (from LANG), used as the default. */
  localeLang: Language;
  /** Which setup init makes: where settings.json finds the hook bundle, and how prompts call the CLI. */
  locate: (dir: string) => LocatedHook;
  /** Shows the plan as soon as it is known (before anything is written). */
  show: (plan: InitPlan) => void;
  /** Whether to apply a plan that changes files; asked only when it does and this is not a dry run. */
  confirm: (plan: InitPlan) => Promise<boolean>;
}

/**
 * What `runInit` did: `all` applied every step, `record` only refreshed the manifest (nothing else to change),
 * `none` wrote nothing (a dry run, or the user said no).
 */
export type InitApplied = "all" | "record" | "none";

/** What init did, and what the sandbox cannot hold of the protected files (to be said). */
export interface InitResult {
  plan: InitPlan;
  applied: InitApplied;
  boundaryNotes: string[];
}

/**
 * `playbook init` in `dir`: reads the project and the last manifest, settles the answers (asked, remembered, or
 * detected), plans with the pure `planInit`, shows the plan, and applies it once confirmed. The manifest is the
 * plan's last step, so it is written by the same `applySteps` as every file, and only after them.
 */
export async function runInit(
  dir: string,
  options: InitOptions,
  deps: InitDeps,
): Promise<InitResult> {
  const plan = await prepareInit(dir, options, deps);
  deps.show(plan);
  if (options.dryRun) return { plan, applied: "none", boundaryNotes: [] };
  if (changingSteps(plan).length === 0) {
    // "Everything is up to date" leaves git's view as it was: the manifest is rewritten only when more than its time
    // would change.
    applySteps(
      dir,
      plan.steps.filter(
        (s) => s.action === "record" && !sameButTime(dir, s.writes),
      ),
    );
    installRuntime(dir, plan, options, deps);
    createToolchainFolders(dir);
    return {
      plan,
      applied: "record",
      boundaryNotes: syncLocalBoundaryAfterInit(dir),
    };
  }
  if (!(await deps.confirm(plan)))
    return { plan, applied: "none", boundaryNotes: [] };
  // The copy first: the loader written next refuses every write until the bundles it names are there.
  installRuntime(dir, plan, options, deps);
  applySteps(dir, plan.steps);
  createToolchainFolders(dir);
  // The settings are init's now: the tool hook may stop refusing changes for settings that failed open.
  writeFailOpen(dir, null);
  return {
    plan,
    applied: "all",
    boundaryNotes: syncLocalBoundaryAfterInit(dir),
  };
}

/** `value` with every object's keys in order, so that two JSON texts compare by content. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

/** Whether each write's JSON equals the file there now, `updatedAt` aside. */
function sameButTime(
  dir: string,
  writes: readonly { path: string; text: string }[],
): boolean {
  const canonical = (text: string): string | null => {
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      delete value["updatedAt"];
      return JSON.stringify(sortedKeys(value));
    } catch {
      return null;
    }
  };
  return writes.every((w) => {
    let now: string;
    try {
      now = readFileSync(join(dir, w.path), "utf8");
    } catch {
      return false;
    }
    const before = canonical(now);
    return before !== null && before === canonical(w.text);
  });
}

/** The runtime setup's copy of the package, written (or refreshed) by every init that makes that setup. */
function installRuntime(
  dir: string,
  plan: InitPlan,
  options: Pick<InitOptions, "plugin">,
  deps: Pick<InitDeps, "packageRoot">,
): void {
  if (plan.answers.setup === "runtime" && !options.plugin)
    writeRuntimeCopy(dir, deps.packageRoot);
}

/** Reads what init needs and plans, changing nothing. */
export async function prepareInit(
  dir: string,
  options: Omit<InitOptions, "dryRun">,
  deps: Omit<InitDeps, "show" | "confirm">,
): Promise<InitPlan> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new PlaybookError("E_USAGE", `${dir} is not a directory.`, {
      hint: "Create it first, or pass the project's directory.",
    });
  // Tasks run on branches and end in a merge: without git, new, the guards and the archive have nothing to work on.
  if (!isGitRepository(dir))
    throw new PlaybookError("E_CONFIG", `${dir} is not a git repository.`, {
      hint: 'Run `git init` and commit your project (`git add -A && git commit -m "Initial commit"`), then `playbook init` again. Nothing was written.',
    });
  const read = (path: string): string | null => {
    try {
      return readFileSync(join(dir, path), "utf8");
    } catch {
      return null;
    }
  };
  const prior = priorManifest(read(MANIFEST_FILE));
  if (options.requireSetup === true && prior === null)
    throw new PlaybookError(
      "E_CONFIG",
      `playbook is not set up in ${dir}: ${MANIFEST_FILE} is missing, so there is nothing to upgrade.`,
      {
        hint: `Set it up with \`npx playbook-kit@${deps.packageVersion} init\` (or \`npx --no playbook init\` after \`npm i -D playbook-kit\`). Nothing was written.`,
      },
    );
  const detected = detectProject(dir, read);
  const answers = await decideAnswers(dir, options, deps, prior, detected);
  const render = createRenderer();
  const context = toTemplateContext(answers);
  const packageFile = (path: string) =>
    readFileSync(join(deps.packageRoot, path), "utf8");
  const plan = planInit(options, {
    dir,
    answers,
    prior,
    read,
    packageFile,
    renderTemplate: (source) => render(source, packageFile(source), context),
    loader: loaderInput(dir, deps, answers),
    schemaRef: existsSync(join(dir, "node_modules", "playbook-kit", "schema"))
      ? "../node_modules/playbook-kit/schema/playbook.schema.json"
      : "https://unpkg.com/playbook-kit/schema/playbook.schema.json",
    packageVersion: deps.packageVersion,
    now: toIsoTime(deps.now()),
    gitExclude: gitExcludeFacts(dir),
  });
  // An upgrade keeps the answers chosen before; the other toolchains matter when the first choice is made.
  const alsoFound = prior ? null : toAlsoFoundNote(detected, answers);
  return alsoFound ? { ...plan, notes: [alsoFound, ...plan.notes] } : plan;
}

/** The repository's exclude file and the sandbox's mount-point names that are no real file in `dir`. */
function gitExcludeFacts(dir: string): InitFacts["gitExclude"] {
  const file = readGitExcludeFile(dir);
  // Made by playbook itself after the plan (settings.local.json is this machine's, the runtime folder holds its
  // record): the block stays the same once they exist, and settings.local.json stays out of `git add -A`.
  return file
    ? {
        ...file,
        missing: [
          ...readMissingMountPoints(dir),
          ".claude/settings.local.json",
          ".claude/playbook",
        ],
      }
    : null;
}

async function decideAnswers(
  dir: string,
  options: Pick<InitOptions, "toolstack" | "lang">,
  deps: Pick<InitDeps, "ask" | "localeLang" | "locate" | "packageVersion">,
  prior: Manifest | null,
  detected: DetectedDefaults,
): Promise<InitAnswers> {
  const defaults = {
    toolstack: options.toolstack ?? prior?.answers.toolstack ?? "A",
    lang: options.lang ?? prior?.answers.lang ?? deps.localeLang,
    testCommand: prior?.answers.testCommand ?? detected.testCommand,
    lintCommand: prior?.answers.lintCommand ?? detected.lintCommand,
  };
  const ask = deps.ask;
  const answer = async (
    key: InitQuestion["key"],
    text: string,
    choices: readonly string[] | null,
    given: boolean,
  ): Promise<string> => {
    if (!ask || given) return defaults[key];
    const value =
      (await ask({ key, text, default: defaults[key], choices })).trim() ||
      defaults[key];
    // The prompt offers only the choices; an answer outside them is refused here too, never rendered.
    if (choices && !choices.includes(value))
      throw new PlaybookError(
        "E_USAGE",
        `Unexpected answer \`${value}\` to "${text}", expected one of ${choices.join(", ")}.`,
        { hint: "Nothing was written. Run `playbook init` again." },
      );
    return value;
  };
  const toolstack = (await answer(
    "toolstack",
    "Toolstack",
    TOOLSTACKS,
    options.toolstack !== null,
  )) as Toolstack;
  const lang = (await answer(
    "lang",
    "Language of the agents, skills and rules",
    LANGUAGES,
    options.lang !== null,
  )) as Language;
  const testCommand = await answer("testCommand", "Test command", null, false);
  const lintCommand = await answer(
    "lintCommand",
    "Lint or type-check command",
    null,
    false,
  );
  const located = deps.locate(dir);
  return {
    toolstack,
    lang,
    projectName: detected.projectName,
    testCommand,
    lintCommand,
    defaultBranch: readDefaultBranch(dir) ?? "main",
    githubRepository: detected.githubRepository,
    setup: located.setup,
    cli: located.cli,
    install: installCommand(located.setup, deps.packageVersion),
    hookPath: located.hookPath,
  };
}

/**
 * The loader's view of the package: where its `dist` is (relative to the loader for a project install, so the
 * committed file works for every teammate) and the hashes of the bundles it checks.
 */
function loaderInput(
  dir: string,
  deps: Pick<InitDeps, "packageVersion" | "packageRoot">,
  answers: InitAnswers,
): LoaderInput {
  // The runtime copy is this package's files, so its hashes are this package's.
  const dist =
    answers.setup === "npm"
      ? join(dir, NPM_PACKAGE, "dist")
      : answers.setup === "runtime"
        ? join(deps.packageRoot, "dist")
        : dirname(answers.hookPath);
  const hashes = Object.fromEntries(
    // Not installed (yet): the loader refuses writes until it is, and doctor says so.
    LOADER_CHECKED_FILES.map((name) => [
      name,
      hashBundle(join(dist, name)) ?? "missing",
    ]),
  ) as LoaderInput["hashes"];
  return {
    setup: answers.setup,
    distExpression: distExpression(answers.setup, dist),
    hashes,
    version: deps.packageVersion,
    cli: answers.cli,
  };
}

/** What the project's root and its `origin` remote suggest as answers. */
function detectProject(
  dir: string,
  read: (path: string) => string | null,
): DetectedDefaults {
  const rootNames = new Set(safeList(dir));
  return detectDefaults({
    folderName: basename(dir),
    rootNames,
    files: readToolchainFiles(rootNames, read),
    remoteUrl: readRemoteUrl(dir, "origin"),
  });
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
