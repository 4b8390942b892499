import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { readArchiveJournal } from "../../adapters/archive-journal-store.ts";
import { isGitRepository, readRemoteUrl } from "../../adapters/git-facts.ts";
import { findGitHubToken } from "../../adapters/github-token.ts";
import { readPostLoopLock } from "../../adapters/runtime-files.ts";
import { chooseProvider } from "../../core/archive/github-remote.ts";
import {
  MINIMUM_CLAUDE_CODE,
  parseClaudeCodeVersion,
} from "../../core/scaffold/claude-code-version.ts";
import {
  HOOK_EVENTS,
  findFailOpenEvents,
  isPlaybookHandler,
} from "../../core/scaffold/hook-settings.ts";
import { MANIFEST_FILE, parseManifest } from "../../core/scaffold/manifest.ts";
import { CONFIG_FILE, readConfig } from "../workspace/read-config.ts";
import { checkBoundary } from "./check-boundary.ts";
import { HOOK_LOADER } from "../../core/paths/trust-paths.ts";
import { agentWritablePath } from "../../adapters/trusted-path-env.ts";
import { runLint } from "../lint/lint.ts";
import type { Finding } from "./finding.ts";

export interface DoctorDeps {
  env: Readonly<Record<string, string | undefined>>;
  packageRoot: string;
  packageVersion: string;
  /** Runs a program, for versions and the hook self-test. */
  run: (
    command: string,
    args: readonly string[],
    input?: string,
    env?: Readonly<Record<string, string | undefined>>,
  ) => { status: number | null; stdout: string; stderr: string; ms: number };
}

const EXEC_FORM_VERSION = MINIMUM_CLAUDE_CODE.split(".").map(Number);

/**
 * `playbook doctor`: everything that makes playbook work in this project, each finding with its fix: node and git,
 * the install and its version, the hook wiring and where it points, a live run of the hook, Claude Code's version,
 * the documents' lint, the archive's provider and token, and locks or archives left behind.
 */
/** What every check may look at. */
interface DoctorContext {
  root: string;
  deps: DoctorDeps;
  manifest: ReturnType<typeof parseManifest>;
  /** The hooks come from the Claude Code plugin, not settings.json. */
  plugin: boolean;
}

interface Say {
  findings: Finding[];
  ok: (area: string, message: string) => void;
  warn: (area: string, message: string, fix: string) => void;
  error: (area: string, message: string, fix: string) => void;
}

/** The checks, in the order `playbook doctor` prints them. */
const DOCTOR_CHECKS: readonly ((ctx: DoctorContext, say: Say) => void)[] = [
  checkNode,
  checkGit,
  checkPath,
  checkRepository,
  checkInstall,
  checkHooksAndBoundary,
  checkClaude,
  checkDocuments,
  checkArchive,
  checkLocks,
];

export function runDoctor(root: string, deps: DoctorDeps): Finding[] {
  const findings: Finding[] = [];
  const say: Say = {
    findings,
    ok: (area, message) =>
      findings.push({ level: "ok", area, message, fix: null }),
    warn: (area, message, fix) =>
      findings.push({ level: "warn", area, message, fix }),
    error: (area, message, fix) =>
      findings.push({ level: "error", area, message, fix }),
  };
  const manifest = parseManifest(readOrNull(join(root, MANIFEST_FILE)));
  const ctx: DoctorContext = {
    root,
    deps,
    manifest,
    plugin: manifest.status === "ok" && manifest.manifest.answers.plugin,
  };
  for (const check of DOCTOR_CHECKS) check(ctx, say);
  return findings;
}

/** The Node.js running playbook. */
function checkNode(_ctx: DoctorContext, say: Say): void {
  const node = process.versions.node;
  if (compareVersions(node.split(".").map(Number), [20, 19, 0]) >= 0)
    say.ok("node", `Node.js ${node}`);
  else
    say.error(
      "node",
      `Node.js ${node} is older than 20.19`,
      "Install Node.js 20.19 or later.",
    );
}

/** git on PATH. */
function checkGit({ deps }: DoctorContext, say: Say): void {
  const git = deps.run("git", ["--version"]);
  if (git.status === 0) say.ok("git", git.stdout.trim());
  else
    say.error(
      "git",
      "git was not found",
      "Install git and make sure it is on PATH.",
    );
}

/** No PATH folder the agent could plant a program in. */
function checkPath({ root, deps }: DoctorContext, say: Say): void {
  // Run through npx or an npm script, npm has put the `node_modules/.bin` folders of the project and its parents first
  // on PATH: they are npm's, not the PATH Claude Code gets from the shell.
  const byNpm = (entry: string) =>
    deps.env["npm_command"] !== undefined &&
    /[\\/](?:node_modules[\\/]\.bin|node-gyp-bin)$/.test(entry);
  const plantable = agentWritablePath(deps.env, root).filter(
    (entry) => !byNpm(entry),
  );
  if (plantable.length > 0)
    say.error(
      "path",
      `PATH has folders the agent can write (${plantable.map((e) => (e === "" ? "an empty entry" : e)).join(", ")}): Claude Code looks up \`node\` for every hook there, so a program the agent put there would run instead of the hook`,
      "Take them out of PATH in the shell that starts Claude Code (hook processes drop them for the programs they start).",
    );
  else say.ok("path", "PATH has no folder the agent can write");
}

/** The project is a git repository. */
function checkRepository({ root }: DoctorContext, say: Say): void {
  if (!isGitRepository(root))
    say.warn(
      "git",
      `${root} is not a git repository`,
      "Run `git init`: branches, the guards and the archive need git.",
    );
}

/** playbook's manifest: installed here, by which version, with upgrades waiting. */
function checkInstall(
  { root, deps, manifest, plugin }: DoctorContext,
  say: Say,
): void {
  if (manifest.status === "missing")
    say.warn(
      "install",
      `${MANIFEST_FILE} is missing: playbook init was not run here`,
      "Run `playbook init` in a terminal.",
    );
  else if (manifest.status === "corrupt")
    say.error(
      "install",
      `${MANIFEST_FILE} cannot be read: ${manifest.problem}`,
      `Restore it (\`git checkout -- ${MANIFEST_FILE}\`).`,
    );
  else {
    const m = manifest.manifest;
    if (m.packageVersion !== deps.packageVersion)
      say.warn(
        "install",
        `installed by playbook ${m.packageVersion}; this is ${deps.packageVersion}`,
        "Run `playbook init` to upgrade (your changes are kept).",
      );
    else
      say.ok(
        "install",
        `playbook ${m.packageVersion}, toolstack ${m.answers.toolstack}, ${m.answers.lang}${plugin ? ", hooks from the plugin" : ""}`,
      );
    const pending = Object.keys(m.files).filter(
      (p) => p.endsWith(".new") && existsSync(join(root, p)),
    );
    if (pending.length > 0)
      say.warn(
        "install",
        `newer versions wait beside files you changed: ${pending.join(", ")}`,
        "Merge what you want from each .new file into yours, then delete it.",
      );
  }
}

/** The hooks in settings.json (unless the plugin brings them) and the trust boundary. */
function checkHooksAndBoundary(
  { root, deps, manifest, plugin }: DoctorContext,
  say: Say,
): void {
  if (!plugin) checkHooks(root, deps, say.findings);
  if (manifest.status === "ok")
    checkBoundary(root, readConfig(root).config.security, plugin, say.findings);
}

/** Claude Code, new enough for the hooks init writes (exec form, `onFailure`). */
function checkClaude({ deps }: DoctorContext, say: Say): void {
  const claude = deps.run("claude", ["--version"]);
  const version =
    claude.status === 0 ? parseClaudeCodeVersion(claude.stdout) : null;
  if (version === null)
    say.warn(
      "claude",
      "Claude Code was not found: `claude --version` did not answer",
      `Install Claude Code ${MINIMUM_CLAUDE_CODE} or later (\`npm i -g @anthropic-ai/claude-code\`), or put \`claude\` on the PATH.`,
    );
  else if (compareVersions(version, EXEC_FORM_VERSION) < 0)
    say.error(
      "claude",
      `Claude Code ${version.join(".")} does not run the hooks init writes`,
      `Update Claude Code to ${MINIMUM_CLAUDE_CODE} or later (\`claude update\`).`,
    );
  else say.ok("claude", `Claude Code ${version.join(".")}`);
}

/** The config, state.md and the playbooks lint clean (a draft playbook only warns). */
function checkDocuments({ root }: DoctorContext, say: Say): void {
  const lint = runLint(root);
  const configErrors = lint.diagnostics.filter(
    (d) => d.severity === "error" && d.file === CONFIG_FILE,
  );
  const first = configErrors[0];
  if (first)
    say.error(
      "config",
      `${configErrors.length} problem${configErrors.length === 1 ? "" : "s"} in ${CONFIG_FILE}, first: ${first.message}`,
      `Run \`playbook lint\` and fix what it lists for ${CONFIG_FILE}.`,
    );
  // A playbook not reviewed yet is a plan still being written (`playbook new` starts one from the skeleton): its
  // lint errors are the work ahead, not a broken install.
  const drafts = new Set(
    lint.playbooks.filter((p) => !p.playbook.meta.reviewed).map((p) => p.file),
  );
  const errorsIn = (inDraft: boolean) =>
    lint.diagnostics.filter(
      (d) =>
        d.severity === "error" &&
        d.file !== CONFIG_FILE &&
        drafts.has(d.file) === inDraft,
    );
  const errors = errorsIn(false).length;
  const draftErrors = errorsIn(true);
  if (!existsSync(join(root, "state.md")))
    say.error("state", "state.md is missing", "Run `playbook init`.");
  else if (errors > 0)
    say.error(
      "state",
      `${errors} lint error${errors === 1 ? "" : "s"} in state.md and the playbooks`,
      "Run `playbook lint` and fix what it lists.",
    );
  else if (draftErrors.length > 0)
    say.warn(
      "state",
      `${[...new Set(draftErrors.map((d) => d.file))].join(", ")} not written yet (${draftErrors.length} lint error${draftErrors.length === 1 ? "" : "s"}, not reviewed)`,
      "Fill it in (the pm subagent does, from the understanding check) until `playbook lint` is clean, then have the reviewer approve it.",
    );
  else
    say.ok(
      "state",
      `state.md and ${lint.playbooks.length} playbook${lint.playbooks.length === 1 ? "" : "s"} lint clean`,
    );
}

/** Where the archive would merge, and with what token. */
function checkArchive({ root, deps }: DoctorContext, say: Say): void {
  const config = readConfig(root).config.archive;
  const remoteUrl = readRemoteUrl(root, config.remote);
  const token = config.provider === "local" ? null : findGitHubToken(deps.env);
  const choice = chooseProvider({
    configured: config.provider,
    remoteUrl,
    repository: config.repository,
    apiUrl: config.apiUrl,
    envApiUrl: deps.env["GITHUB_API_URL"] ?? null,
    hasToken: token !== null,
  });
  if (choice.provider === null)
    say.error(
      "archive",
      choice.problem,
      "Set archive.provider to local, or add a token.",
    );
  else if (choice.provider === "github")
    say.ok(
      "archive",
      `pull requests on ${choice.repository.owner}/${choice.repository.repo} through ${choice.apiUrl} (token found)`,
    );
  else if (choice.note)
    say.warn(
      "archive",
      choice.note,
      "Set GITHUB_TOKEN or GH_TOKEN, or run `gh auth login`, to merge through pull requests.",
    );
  else
    say.ok(
      "archive",
      remoteUrl
        ? `local merge, pushed to ${config.remote}`
        : "local merge (no remote)",
    );
}

/** No post-loop lock and no unfinished archive. */
function checkLocks({ root }: DoctorContext, say: Say): void {
  const lock = readPostLoopLock(root);
  if (lock)
    say.warn(
      "locks",
      `the post-loop lock is set (${lock.playbook ?? "a playbook"} archived${lock.at ? ` at ${lock.at}` : ""})`,
      "Run `playbook post-loop` to pick the next task.",
    );
  const journal = readArchiveJournal(root);
  if (journal.status === "ok" && journal.journal.status !== "success")
    say.warn(
      "locks",
      `the archive of ${journal.journal.playbook} is unfinished${journal.journal.next ? `: ${journal.journal.next}` : ""}`,
      "Run `playbook archive --resume`.",
    );
  else if (journal.status === "corrupt")
    say.error(
      "locks",
      `the archive journal cannot be read: ${journal.problem}`,
      "Look at .claude/playbook/archive-journal.json; `git log` shows how far it got.",
    );
  if (
    !lock &&
    (journal.status !== "ok" || journal.journal.status === "success")
  )
    say.ok("locks", "no lock, no unfinished archive");
}

function checkHooks(root: string, deps: DoctorDeps, findings: Finding[]): void {
  const push = (level: Finding["level"], message: string, fix: string | null) =>
    findings.push({ level, area: "hooks", message, fix });
  const text = readOrNull(join(root, ".claude", "settings.json"));
  if (text === null) {
    push(
      "error",
      ".claude/settings.json is missing: no hook runs",
      "Run `playbook init`.",
    );
    return;
  }
  let settings: { hooks?: Record<string, { hooks?: unknown[] }[]> };
  try {
    settings = JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")) as typeof settings;
  } catch {
    push(
      "error",
      ".claude/settings.json is not valid JSON, so Claude Code runs no hook from it",
      "Fix it (`playbook init` reports the line).",
    );
    return;
  }
  const paths = new Set<string>();
  const missing: string[] = [];
  const doubled: string[] = [];
  for (const { event } of HOOK_EVENTS) {
    const handlers = (settings.hooks?.[event] ?? [])
      .flatMap((g) => (Array.isArray(g.hooks) ? g.hooks : []))
      .filter((h) =>
        isPlaybookHandler(h, [join(deps.packageRoot, "dist", "hook.cjs")]),
      );
    if (handlers.length === 0) missing.push(event);
    if (handlers.length > 1) doubled.push(event);
    for (const h of handlers) {
      const args = (h as { args?: unknown }).args;
      if (Array.isArray(args) && typeof args[0] === "string")
        paths.add(args[0]);
    }
  }
  if (missing.length > 0)
    push(
      "error",
      `not wired: ${missing.join(", ")}`,
      "Run `playbook init` (it adds each hook once).",
    );
  if (doubled.length > 0)
    push(
      "warn",
      `wired more than once: ${doubled.join(", ")}`,
      "Run `playbook init`: it keeps one handler per event.",
    );
  const failOpen = findFailOpenEvents(settings, [
    join(deps.packageRoot, "dist", "hook.cjs"),
  ]);
  if (failOpen.length > 0)
    push(
      "error",
      `${failOpen.join(", ")} runs without \`"onFailure": "block"\`: a hook that crashes or times out lets the tool call through unchecked`,
      "Run `playbook init` to upgrade the settings (your own entries are kept).",
    );
  const resolved = [...paths].map((p) =>
    p.replace(/^\$\{CLAUDE_PROJECT_DIR\}/, root),
  );
  const bundle = resolved[0];
  if (resolved.length > 1)
    push(
      "warn",
      `the hooks point at ${resolved.length} different bundles`,
      "Run `playbook init` to point them all at one.",
    );
  if (bundle === undefined) return;
  if (!existsSync(bundle)) {
    push(
      "error",
      `the hook bundle ${bundle} does not exist`,
      "Install playbook-kit in the project (`npm i -D playbook-kit`), or run `playbook init` again from the install you use.",
    );
    return;
  }
  const ours = join(deps.packageRoot, "dist", "hook.cjs");
  // The loader names its bundle itself; the boundary check compares that one with what init installed.
  const viaLoader = bundle.replace(/\\/g, "/").endsWith(HOOK_LOADER);
  if (!viaLoader && realpathSync(bundle) !== realpathSync(ours))
    push(
      "warn",
      `the hooks run ${bundle}, while this command is ${ours}`,
      "Run `playbook init` with the install the project should use.",
    );
  else
    push(
      "ok",
      `${HOOK_EVENTS.length - missing.length} events wired to ${bundle}`,
      null,
    );

  const payload = JSON.stringify({
    session_id: "playbook-doctor",
    transcript_path: "",
    cwd: root,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(root, "state.md") },
  });
  const env = {
    ...deps.env,
    CLAUDE_PROJECT_DIR: root,
    PLAYBOOK_DISABLE: undefined,
  };
  const runs = [0, 1, 2].map(() =>
    deps.run(process.execPath, [bundle, "PreToolUse"], payload, env),
  );
  const bare = [0, 1, 2].map(() => deps.run(process.execPath, ["-e", "0"]));
  const failed = runs.find((r) => r.status !== 0 || !isJsonObject(r.stdout));
  if (failed) {
    push(
      "error",
      `the hook did not answer a Read (exit ${String(failed.status)}: ${(failed.stderr || failed.stdout).trim().slice(0, 200)})`,
      "Run `playbook init` again; if it persists, report it with this output.",
    );
    return;
  }
  const hook = median(runs.map((r) => r.ms));
  const node = median(bare.map((r) => r.ms));
  const message = `the hook answers a Read in ${hook.toFixed(0)} ms (Node alone starts in ${node.toFixed(0)} ms)`;
  if (hook > Math.max(500, node * 3))
    push(
      "warn",
      message,
      "Something slows every tool call: check antivirus scanning of node_modules, or a slow disk.",
    );
  else push("ok", message, null);
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text.trim() || "{}");
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
