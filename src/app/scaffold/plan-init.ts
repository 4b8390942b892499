import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  isGitRepository,
  readDefaultBranch,
  readRemoteUrl,
} from "../../adapters/git-facts.ts";
import {
  LANGUAGES,
  TOOLSTACKS,
  rolesFor,
  type InitAnswers,
  type Language,
  type Toolstack,
} from "../../core/scaffold/answers.ts";
import { upsertClaudeBlock } from "../../core/scaffold/claude-md-block.ts";
import { detectDefaults } from "../../core/scaffold/detect-defaults.ts";
import { addGitignoreLines } from "../../core/scaffold/gitignore-lines.ts";
import {
  MANIFEST_FILE,
  parseManifest,
  type Manifest,
  type SharedFileRecord,
} from "../../core/scaffold/manifest.ts";
import {
  planBoundaryMerge,
  planSettingsMerge,
  planSettingsRemoval,
} from "../../core/scaffold/merge-settings.ts";
import {
  hookLoaderSource,
  LOADER_CHECKED_FILES,
  PROJECT_DIST_EXPRESSION,
} from "../../core/scaffold/hook-loader.ts";
import { hashBundle } from "../../adapters/hash-bundle.ts";
import { HOOK_LOADER } from "../../core/paths/trust-paths.ts";
import {
  GITHUB_WORKFLOW,
  githubWorkflow,
  type CiProvider,
} from "../../core/scaffold/ci-workflow.ts";
import { resolveConfig } from "../../core/config/config.ts";
import type { SecurityMode } from "../../core/model/state.ts";
import { parseState } from "../../core/parse/parse-state.ts";
import { modify, applyEdits, parse as parseJsonc } from "jsonc-parser";
import {
  contentHash,
  planFileWrites,
  type WriteAction,
} from "../../core/scaffold/plan-writes.ts";
import {
  claudeBlockTemplate,
  planTemplateTargets,
} from "../../core/scaffold/template-catalogue.ts";
import { setStateField } from "../../core/edit/state-writers.ts";
import { PlaybookError } from "../../core/errors.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";
import { createRenderer } from "../../render/render-template.ts";
import { toTemplateContext } from "../../render/template-context.ts";

export interface InitOptions {
  toolstack: Toolstack | null;
  lang: Language | null;
  /** Accept the detected answers without asking. */
  yes: boolean;
  /** Write ours beside files the user changed, as `<file>.new`. */
  force: boolean;
  /** The hooks, agents, skills and commands come from the Claude Code plugin: write only the project files. */
  plugin: boolean;
  /** `--ci github`: a workflow that re-runs the validations on pull requests; null keeps what the last init chose. */
  ci?: CiProvider | null;
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
  /** Where settings.json should find the hook bundle, and how prompts should call the CLI. */
  locate: (dir: string) => { hookPath: string; cli: string };
}

/** One line of the plan: a path, what happens to it and why; applying writes `writes` and deletes `removes`. */
export interface InitStep {
  path: string;
  action: WriteAction | "merge" | "keep";
  detail: string;
  writes: { path: string; text: string }[];
  removes: string[];
}

export interface InitPlan {
  dir: string;
  answers: InitAnswers;
  upgrade: boolean;
  steps: InitStep[];
  notes: string[];
  manifest: Manifest;
}

const SETTINGS = ".claude/settings.json";
const GITIGNORE = ".gitignore";
const CLAUDE_MD = "CLAUDE.md";
const STATE = "state.md";
const CONFIG = ".claude/playbook.json";
const PLAN_TEMPLATES = [
  "playbook-format.md",
  "planning-rules.md",
  "playbook-examples.md",
  "state-initial.md",
];

/**
 * Works out everything `playbook init` would do in `dir`, changing nothing: the answers (asked, remembered from the
 * last init, or detected), every file rendered, and per path whether it is created, updated, left alone because
 * the user changed it, or merged (settings.json, .gitignore, CLAUDE.md).
 */
export async function planInit(
  dir: string,
  options: InitOptions,
  deps: InitDeps,
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
  const previous = parseManifest(read(MANIFEST_FILE));
  if (previous.status === "corrupt")
    throw new PlaybookError(
      "E_CONFIG",
      `${MANIFEST_FILE} cannot be read: ${previous.problem}.`,
      {
        hint: `Restore it from git (\`git checkout -- ${MANIFEST_FILE}\`), or delete it: init then treats every existing file as yours and writes nothing over it.`,
      },
    );
  const prior = previous.status === "ok" ? previous.manifest : null;
  const answers = await decideAnswers(dir, options, deps, prior, read);
  const render = createRenderer();
  const context = toTemplateContext(answers);
  const template = (path: string) =>
    readFileSync(join(deps.packageRoot, path), "utf8");

  const desired: { path: string; content: string }[] = [];
  for (const { source, target } of planTemplateTargets(answers)) {
    if (options.plugin && isPluginComponent(target)) continue;
    desired.push({
      path: target,
      content: render(source, template(source), context),
    });
  }
  for (const name of PLAN_TEMPLATES)
    desired.push({
      path: `plan/template/${name}`,
      content: template(`plan/template/${name}`),
    });
  const priorFiles = prior?.files ?? {};
  const createOnly = (path: string, content: () => string) => {
    if (read(path) === null) desired.push({ path, content: content() });
  };
  const ci = options.ci ?? prior?.answers.ci ?? null;
  if (ci === "github")
    desired.push({ path: GITHUB_WORKFLOW, content: githubWorkflow() });
  const loaderPath = `\${CLAUDE_PROJECT_DIR}/${HOOK_LOADER}`;
  if (!options.plugin)
    desired.push({
      path: HOOK_LOADER,
      content: hookLoaderSource(loaderInput(dir, deps, answers)),
    });
  createOnly(STATE, () =>
    initialState(template(`plan/template/state-initial.md`), answers),
  );
  const freshConfig = `${JSON.stringify({ $schema: schemaRef(dir) }, null, 2)}\n`;
  const migration = migrateSecurity(read(STATE), read(CONFIG) ?? freshConfig);
  const mode = migration?.mode ?? readMode(read(CONFIG));
  if (!migration) createOnly(CONFIG, () => freshConfig);
  const createOnlyKept = [STATE, CONFIG].filter(
    (p) => read(p) !== null && priorFiles[p] !== undefined,
  );

  const writes = planFileWrites(
    desired,
    read,
    Object.fromEntries(
      Object.entries(priorFiles).filter(([p]) => !createOnlyKept.includes(p)),
    ),
    options.force,
  );
  const steps: InitStep[] = writes.map((w) => ({
    path: w.path,
    action: w.action,
    detail: describeWrite(w.action, w.path, options.force),
    writes: w.writeTo ? [{ path: w.writeTo, text: w.content }] : [],
    removes: w.action === "remove" ? [w.path] : [],
  }));
  const notes: string[] = [];
  if (!options.plugin && !answers.hookPath.startsWith("${CLAUDE_PROJECT_DIR}"))
    notes.push(
      `the hooks call ${answers.hookPath}, which exists only on this machine: for settings that work for every teammate, install playbook in the project (\`npm i -D playbook-kit\`) and run \`npx --no playbook init\` again`,
    );
  const files: Record<string, string> = {};
  for (const p of createOnlyKept) files[p] = priorFiles[p] ?? "";
  for (const w of writes) {
    if (w.action === "remove" || w.action === "keep-stale") {
      if (w.action === "keep-stale") files[w.path] = priorFiles[w.path] ?? "";
      continue;
    }
    if (w.action === "keep-modified") files[w.path] = priorFiles[w.path] ?? "";
    else if (w.action !== "conflict") files[w.path] = contentHash(w.content);
    if (w.writeTo && w.writeTo !== w.path)
      files[w.writeTo] = contentHash(w.content);
  }

  if (migration) {
    steps.push(
      sharedStep(
        CONFIG,
        read(CONFIG),
        migration.config,
        true,
        `\`"security": "${migration.mode}"\` moved here from state.md`,
      ),
      sharedStep(
        STATE,
        read(STATE),
        migration.state,
        migration.state !== read(STATE),
        "`security` moved to .claude/playbook.json",
      ),
    );
    notes.push(
      `security ${migration.mode} moved from state.md to .claude/playbook.json, where the agent cannot change it`,
    );
  }
  const knownPaths = [...(prior?.hookPaths ?? []), answers.hookPath];
  const handlerPath = options.plugin ? answers.hookPath : loaderPath;
  const settingsText = read(SETTINGS);
  const boundary = { mode, prior: prior?.boundary };
  const withoutHooks =
    options.plugin && settingsText !== null
      ? planSettingsRemoval(settingsText, knownPaths)
      : null;
  const settings = options.plugin
    ? withoutHooks && !withoutHooks.ok
      ? withoutHooks
      : planBoundaryMerge(withoutHooks?.text ?? settingsText, boundary)
    : planSettingsMerge(settingsText, handlerPath, knownPaths, boundary);
  if (!settings.ok)
    throw new PlaybookError(
      "E_CONFIG",
      `${SETTINGS}:${settings.line}:${settings.column}: ${settings.problem}.`,
      {
        hint: `Fix ${SETTINGS} (Claude Code cannot read it either), then run \`playbook init\` again. Nothing was changed.`,
      },
    );
  notes.push(...settings.notes);
  steps.push(
    sharedStep(
      SETTINGS,
      settingsText,
      settings.text,
      settings.text !== (settingsText ?? "{}\n"),
      options.plugin
        ? "playbook's hooks taken out (the plugin brings them); the sandbox that guards its records kept"
        : settingsText === null
          ? "playbook's hooks and the sandbox that guards its records"
          : "playbook's hooks and sandbox added once; yours kept",
    ),
  );
  const settingsRecord: SharedFileRecord = nextShared(
    prior?.settings,
    settingsText,
    settings.text,
  );

  const gitignoreText = read(GITIGNORE);
  const gitignore = addGitignoreLines(gitignoreText);
  notes.push(...gitignore.notes);
  steps.push(
    sharedStep(
      GITIGNORE,
      gitignoreText,
      gitignore.text,
      gitignore.added.length > 0,
      `${gitignore.added.length} line${gitignore.added.length === 1 ? "" : "s"} appended`,
    ),
  );
  const priorLines = prior?.gitignore?.lines ?? [];

  const claudeText = read(CLAUDE_MD);
  const blockSource = claudeBlockTemplate(answers.lang);
  const block = upsertClaudeBlock(
    claudeText,
    render(blockSource, template(blockSource), context),
  );
  if (!block.ok)
    throw new PlaybookError(
      "E_CONFIG",
      `${CLAUDE_MD}:${block.line}: ${block.problem}.`,
      {
        hint: "Keep exactly one `<!-- playbook:begin -->` … `<!-- playbook:end -->` pair (or none), then run `playbook init` again. Nothing was changed.",
      },
    );
  steps.push(
    sharedStep(
      CLAUDE_MD,
      claudeText,
      block.text,
      block.text !== claudeText,
      "playbook's block between <!-- playbook:begin --> and <!-- playbook:end -->; the rest is yours",
    ),
  );

  const now = toIsoTime(deps.now());
  const manifest: Manifest = {
    version: 1,
    packageVersion: deps.packageVersion,
    answers: {
      toolstack: answers.toolstack,
      lang: answers.lang,
      testCommand: answers.testCommand,
      lintCommand: answers.lintCommand,
      plugin: options.plugin,
      ...(ci ? { ci } : {}),
    },
    files,
    settings: settingsRecord,
    gitignore: {
      ...nextShared(prior?.gitignore, gitignoreText, gitignore.text),
      lines: [...new Set([...priorLines, ...gitignore.added])],
    },
    claudeMd: nextShared(prior?.claudeMd, claudeText, block.text),
    ...(settings.ok && settings.boundary
      ? { boundary: settings.boundary }
      : {}),
    hookPaths: [
      ...new Set([...knownPaths, ...(options.plugin ? [] : [loaderPath])]),
    ],
    installedAt: prior?.installedAt ?? now,
    updatedAt: now,
  };
  return { dir, answers, upgrade: prior !== null, steps, notes, manifest };
}

async function decideAnswers(
  dir: string,
  options: InitOptions,
  deps: InitDeps,
  prior: Manifest | null,
  read: (path: string) => string | null,
): Promise<InitAnswers> {
  const detected = detectDefaults({
    folderName: basename(dir),
    rootNames: new Set(safeList(dir)),
    packageJson: read("package.json"),
    makefile: read("Makefile"),
    remoteUrl: readRemoteUrl(dir, "origin"),
  });
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
    cli: located.cli,
    hookPath: located.hookPath,
  };
}

/**
 * The loader's view of the package: where its `dist` is (relative to the loader for a project install, so the
 * committed file works for every teammate) and the hashes of the bundles it checks.
 */
function loaderInput(
  dir: string,
  deps: InitDeps,
  answers: InitAnswers,
): Parameters<typeof hookLoaderSource>[0] {
  const project = answers.hookPath.startsWith("${CLAUDE_PROJECT_DIR}/");
  const dist = project
    ? join(dir, "node_modules", "playbook-kit", "dist")
    : dirname(answers.hookPath);
  const hashes = Object.fromEntries(
    // Not installed (yet): the loader refuses writes until it is, and doctor says so.
    LOADER_CHECKED_FILES.map((name) => [
      name,
      hashBundle(join(dist, name)) ?? "missing",
    ]),
  ) as Parameters<typeof hookLoaderSource>[0]["hashes"];
  return {
    distExpression: project ? PROJECT_DIST_EXPRESSION : JSON.stringify(dist),
    hashes,
    version: deps.packageVersion,
    cli: answers.cli,
  };
}

/** The security mode `.claude/playbook.json` sets (strict when absent or unreadable). */
function readMode(configText: string | null): SecurityMode {
  if (configText === null) return "strict";
  try {
    return resolveConfig(JSON.parse(configText)).config.security;
  } catch {
    return "strict";
  }
}

/**
 * An older install kept `security` in state.md, which the agent may edit. It moves to `.claude/playbook.json`
 * (unless that already sets one) and its line leaves state.md. Null when there is nothing to move.
 */
function migrateSecurity(
  stateText: string | null,
  configText: string,
): { mode: SecurityMode; state: string; config: string } | null {
  if (stateText === null) return null;
  const state = parseState(stateText, STATE);
  if (!state.diagnostics.some((d) => d.code === "security-moved")) return null;
  const line = /^security:[ \t]*(strict|trusted|admin|developer)[ \t]*\r?\n/m;
  const written = line.exec(stateText)?.[1] as SecurityMode | undefined;
  const base = configText;
  let existing: unknown;
  try {
    existing = parseJsonc(base);
  } catch {
    return null;
  }
  const alreadySet =
    typeof existing === "object" && existing !== null && "security" in existing;
  const mode = alreadySet ? readMode(base) : (written ?? "strict");
  const config = alreadySet
    ? base
    : applyEdits(
        base,
        modify(base, ["security"], mode, {
          formattingOptions: { insertSpaces: true, tabSize: 2 },
        }),
      );
  return { mode, state: stateText.replace(line, ""), config };
}

/** state.md from the shipped initial state, with the toolstack and its roles. */
function initialState(template: string, answers: InitAnswers): string {
  let text = template;
  const roles = rolesFor(answers.toolstack);
  for (const [key, value] of [
    ["toolstack", answers.toolstack],
    [
      "roles",
      `{orchestrator: ${roles.orchestrator}, worker: ${roles.worker}, reviewer: ${roles.reviewer}, human: ${roles.human}}`,
    ],
  ] as const) {
    const result =
      key === "roles"
        ? {
            ok: true as const,
            text: text.replace(/^roles: .*$/m, `roles: ${value}`),
          }
        : setStateField(text, "config", key, value);
    if (result.ok) text = result.text;
  }
  return text;
}

function schemaRef(dir: string): string {
  return existsSync(join(dir, "node_modules", "playbook-kit", "schema"))
    ? "../node_modules/playbook-kit/schema/playbook.schema.json"
    : "https://unpkg.com/playbook-kit/schema/playbook.schema.json";
}

function isPluginComponent(target: string): boolean {
  return /^\.claude\/(?:agents|skills|commands)\//.test(target);
}

function sharedStep(
  path: string,
  before: string | null,
  after: string | null,
  changed: boolean,
  what: string,
): InitStep {
  return {
    path,
    action: !changed ? "unchanged" : before === null ? "create" : "merge",
    detail: changed ? what : "already up to date",
    writes: changed && after !== null ? [{ path, text: after }] : [],
    removes: [],
  };
}

/** The manifest record of a shared file after this init (see `SharedFileRecord`). */
function nextShared(
  prior: SharedFileRecord | undefined,
  before: string | null,
  after: string,
): SharedFileRecord {
  const written = contentHash(after);
  if (prior === undefined || before === null)
    return { original: before, written };
  if (prior.original !== undefined && contentHash(before) === prior.written)
    return { original: prior.original, written };
  return { written };
}

function describeWrite(
  action: WriteAction,
  path: string,
  force: boolean,
): string {
  const name = basename(path);
  switch (action) {
    case "create":
      return "new";
    case "update":
      return "newer version; you had not changed it";
    case "unchanged":
      return "already up to date";
    case "keep-modified":
      return force
        ? `you changed it: kept, ours written as ${name}.new`
        : "you changed it: kept (--force writes ours beside it as .new)";
    case "conflict":
      return force
        ? `a file of yours is there: kept, ours written as ${name}.new`
        : "a file of yours is there: kept (--force writes ours beside it as .new)";
    case "remove":
      return "no longer part of the install; you had not changed it";
    case "keep-stale":
      return "no longer part of the install, but you changed it: kept";
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
