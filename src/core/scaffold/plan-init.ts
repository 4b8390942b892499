import { basename } from "node:path";
import { applyEdits, modify, parse as parseJsonc } from "jsonc-parser";
import { resolveConfig } from "../config/config.ts";
import { setStateField } from "../edit/state-writers.ts";
import { locationAt, PlaybookError } from "../errors.ts";
import type { SecurityMode } from "../model/state.ts";
import { parseState } from "../parse/parse-state.ts";
import { HOOK_LOADER } from "../paths/trust-paths.ts";
import { rolesFor, type InitAnswers } from "./answers.ts";
import {
  GITHUB_WORKFLOW,
  githubWorkflow,
  type CiProvider,
} from "./ci-workflow.ts";
import { upsertClaudeBlock } from "./claude-md-block.ts";
import { planExcludeLines, upsertExcludeBlock } from "./git-exclude-block.ts";
import { addGitignoreLines } from "./gitignore-lines.ts";
import { RUNTIME_COPY, installCommand } from "./setup-kind.ts";
import { toolchainAllowWrite } from "./toolchain-writes.ts";
import { hookLoaderSource, type LoaderInput } from "./hook-loader.ts";
import {
  MANIFEST_FILE,
  parseManifest,
  type Manifest,
  type SharedFileRecord,
} from "./manifest.ts";
import {
  planBoundaryMerge,
  planSettingsMerge,
  planSettingsRemoval,
} from "./merge-settings.ts";
import {
  contentHash,
  planFileWrites,
  type WriteAction,
} from "./plan-writes.ts";
import {
  claudeBlockTemplate,
  planTemplateTargets,
} from "./template-catalogue.ts";

/** How init was asked to write, beside the answers. */
export interface InitChoices {
  /** Write ours beside files the user changed, as `<file>.new`. */
  force: boolean;
  /** The hooks, agents, skills and commands come from the Claude Code plugin: write only the project files. */
  plugin: boolean;
  /** `--ci github`: a workflow that re-runs the validations on pull requests; null keeps what the last init chose. */
  ci?: CiProvider | null;
}

/**
 * Everything init reads, gathered before planning: the project's files and the package's templates are passed in
 * as functions, so the plan is worked out without touching the disk.
 */
export interface InitFacts {
  dir: string;
  answers: InitAnswers;
  /** The manifest of the last init, or null on a first install. */
  prior: Manifest | null;
  /** A project file's text, or null when it does not exist. */
  read: (path: string) => string | null;
  /** A file of the package, verbatim (the plan templates). */
  packageFile: (path: string) => string;
  /** A package template rendered with the answers. */
  renderTemplate: (source: string) => string;
  /** The hook loader's view of the installed package (see `hookLoaderSource`). */
  loader: LoaderInput;
  /** Where a fresh `.claude/playbook.json` finds its JSON schema. */
  schemaRef: string;
  packageVersion: string;
  /** This init's time, ISO 8601. */
  now: string;
  /**
   * The repository's `info/exclude` (its path relative to `dir`, its text or null), the project's folder in the
   * repository (`git rev-parse --show-prefix`) and the sandbox's mount-point names that are no real file in `dir`;
   * null when git cannot say where it is.
   */
  gitExclude: {
    path: string;
    text: string | null;
    prefix: string;
    missing: readonly string[];
  } | null;
}

/**
 * One line of the plan: a path, what happens to it and why; applying writes `writes` and deletes `removes`. The
 * last step, `record`, writes the manifest that lets the next upgrade and uninstall tell ours from the user's.
 */
export interface InitStep {
  path: string;
  action: WriteAction | "merge" | "keep" | "record";
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
 * The manifest the last init wrote, or null when there is none.
 *
 * @throws PlaybookError E_CONFIG when it is there but cannot be read: init must not guess which files are ours.
 */
export function priorManifest(text: string | null): Manifest | null {
  const previous = parseManifest(text);
  if (previous.status === "corrupt")
    throw new PlaybookError(
      "E_CONFIG",
      `${MANIFEST_FILE} cannot be read: ${previous.problem}.`,
      {
        hint: `Restore it from git (\`git checkout -- ${MANIFEST_FILE}\`), or delete it: init then treats every existing file as yours and writes nothing over it.`,
        location: { file: MANIFEST_FILE },
      },
    );
  return previous.status === "ok" ? previous.manifest : null;
}

/** The steps that change the project, leaving out the manifest's own record. */
export function changingSteps(plan: InitPlan): InitStep[] {
  return plan.steps.filter(
    (s) =>
      s.action !== "record" && (s.writes.length > 0 || s.removes.length > 0),
  );
}

/**
 * Works out everything `playbook init` would do, from what it read: every file rendered, and per path whether it is
 * created, updated, left alone because the user changed it, or merged (settings.json, .gitignore, CLAUDE.md); the
 * manifest is the last step. Pure: `runInit` (app) gathers the facts and applies the plan.
 */
export function planInit(choices: InitChoices, facts: InitFacts): InitPlan {
  const { dir, answers, prior, read } = facts;
  const options = choices;
  const desired: { path: string; content: string }[] = [];
  for (const { source, target } of planTemplateTargets(answers)) {
    if (options.plugin && isPluginComponent(target)) continue;
    desired.push({
      path: target,
      content: facts.renderTemplate(source),
    });
  }
  for (const name of PLAN_TEMPLATES)
    desired.push({
      path: `plan/template/${name}`,
      content: facts.packageFile(`plan/template/${name}`),
    });
  const priorFiles = prior?.files ?? {};
  const createOnly = (path: string, content: () => string) => {
    if (read(path) === null) desired.push({ path, content: content() });
  };
  const ci = options.ci ?? prior?.answers.ci ?? null;
  if (ci === "github")
    desired.push({
      path: GITHUB_WORKFLOW,
      content: githubWorkflow({
        setup: answers.setup,
        version: facts.packageVersion,
        testCommand: answers.testCommand,
      }),
    });
  const loaderPath = `\${CLAUDE_PROJECT_DIR}/${HOOK_LOADER}`;
  if (!options.plugin)
    desired.push({
      path: HOOK_LOADER,
      content: hookLoaderSource(facts.loader),
    });
  createOnly(STATE, () =>
    initialState(facts.packageFile(`plan/template/state-initial.md`), answers),
  );
  const freshConfig = `${JSON.stringify({ $schema: facts.schemaRef }, null, 2)}\n`;
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
  if (!options.plugin && answers.setup === "checkout")
    notes.push(
      `the hooks call ${answers.hookPath}, a source checkout of playbook on this machine: for settings that work for every teammate, run \`npx playbook-kit@${facts.packageVersion} init\` instead (or install playbook-kit in the project)`,
    );
  if (!options.plugin && answers.setup === "runtime")
    notes.push(
      `playbook-kit ${facts.packageVersion} is copied into ${RUNTIME_COPY}/ (git ignores it, the agent cannot change it); each teammate's clone runs \`${installCommand("runtime", facts.packageVersion)}\` once`,
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
  const boundary = {
    mode,
    prior: prior?.boundary,
    allowWrite: toolchainAllowWrite(answers.testCommand, answers.lintCommand),
  };
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
      `playbook cannot merge its settings into ${SETTINGS}: ${settings.problem}.`,
      {
        hint: `Fix ${SETTINGS} (Claude Code cannot read it either), then run \`playbook init\` again. Nothing was changed.`,
        location: locationAt(SETTINGS, settings),
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
  if (facts.gitExclude) {
    const { path, text, prefix } = facts.gitExclude;
    // A name this init writes (settings.json, the loader, the configuration) is a real file once it is applied.
    const written = steps.flatMap((s) => s.writes.map((w) => w.path));
    const missing = facts.gitExclude.missing.filter(
      (name) => !written.some((w) => w === name || w.startsWith(`${name}/`)),
    );
    const lines = planExcludeLines(prefix, new Set(missing));
    const after = upsertExcludeBlock(text, lines);
    steps.push(
      sharedStep(
        path,
        text,
        after,
        after !== (text ?? ""),
        lines.length > 0
          ? "Claude Code's sandbox mount points kept out of `git add -A`"
          : "playbook's block taken out: the project has each of those names",
      ),
    );
  }

  const claudeText = read(CLAUDE_MD);
  const blockSource = claudeBlockTemplate(answers.lang);
  const block = upsertClaudeBlock(
    claudeText,
    facts.renderTemplate(blockSource),
  );
  if (!block.ok)
    throw new PlaybookError("E_CONFIG", `${block.problem}.`, {
      hint: "Keep exactly one `<!-- playbook:begin -->` … `<!-- playbook:end -->` pair (or none), then run `playbook init` again. Nothing was changed.",
      location: { file: CLAUDE_MD, line: block.line },
    });
  steps.push(
    sharedStep(
      CLAUDE_MD,
      claudeText,
      block.text,
      block.text !== claudeText,
      "playbook's block between <!-- playbook:begin --> and <!-- playbook:end -->; the rest is yours",
    ),
  );

  const now = facts.now;
  const manifest: Manifest = {
    version: 1,
    packageVersion: facts.packageVersion,
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
  steps.push({
    path: MANIFEST_FILE,
    action: "record",
    detail:
      "what this init installed, so upgrade and uninstall can tell ours from yours",
    writes: [
      { path: MANIFEST_FILE, text: `${JSON.stringify(manifest, null, 2)}\n` },
    ],
    removes: [],
  });
  return { dir, answers, upgrade: prior !== null, steps, notes };
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
