/** The bundles the hook runs on every call, whose hashes the loader checks. */
export const LOADER_CHECKED_FILES = [
  "hook.cjs",
  "hook-main.cjs",
  "hook-session.cjs",
] as const;

import {
  installCommand,
  upgradeCommand,
  type SetupKind,
} from "./setup-kind.ts";

/** The `dist` expression of a project install: relative to the loader, so the committed file works everywhere. */
const PROJECT_DIST_EXPRESSION =
  'path.join(__dirname, "..", "..", "node_modules", "playbook-kit", "dist")';

/** The `dist` expression of the runtime setup's copy (`.claude/playbook/runtime`), relative to the loader. */
export const RUNTIME_DIST_EXPRESSION =
  'path.join(__dirname, "..", "playbook", "runtime", "dist")';

/** The loader's `dist` expression for a setup: relative for the two a team can share, else the absolute path. */
export function distExpression(kind: SetupKind, checkoutDist: string): string {
  if (kind === "npm") return PROJECT_DIST_EXPRESSION;
  if (kind === "runtime") return RUNTIME_DIST_EXPRESSION;
  return JSON.stringify(checkoutDist);
}

export interface LoaderInput {
  setup: SetupKind;
  /**
   * Where the package's `dist` folder is, as a JavaScript expression: relative to the loader for a project install
   * (so the committed file works on every machine), else an absolute path.
   */
  distExpression: string;
  /** `sha256` hex of each checked file, as init found them. */
  hashes: Readonly<Record<(typeof LOADER_CHECKED_FILES)[number], string>>;
  version: string;
  /** How the user runs the CLI (`npx --no playbook`). */
  cli: string;
}

/** What a loader `hookLoaderSource` wrote checks. */
export interface LoaderChecks {
  setup: SetupKind;
  /** The absolute `dist` of a checkout setup; null for the two setups named relative to the project. */
  dist: string | null;
  hashes: Record<string, string>;
  /** The playbook-kit version the setup was made with ("" for a loader older than the field's reading). */
  version: string;
}

/** What a loader `hookLoaderSource` wrote checks. Null when the text is not such a loader. */
export function readLoaderChecks(text: string): LoaderChecks | null {
  const expected = /^const EXPECTED = (\{.*\});$/m.exec(text)?.[1];
  const dist = /^const DIST = (.*);$/m.exec(text)?.[1];
  const version = /^const VERSION = (".*");$/m.exec(text)?.[1];
  if (expected === undefined || dist === undefined) return null;
  try {
    const hashes = JSON.parse(expected) as Record<string, string>;
    const common = {
      hashes,
      version: version === undefined ? "" : (JSON.parse(version) as string),
    };
    if (dist === PROJECT_DIST_EXPRESSION)
      return { setup: "npm", dist: null, ...common };
    if (dist === RUNTIME_DIST_EXPRESSION)
      return { setup: "runtime", dist: null, ...common };
    return { setup: "checkout", dist: JSON.parse(dist) as string, ...common };
  } catch {
    return null;
  }
}

/**
 * The source of `.claude/hooks/playbook.cjs`, the file every hook handler runs (docs/trust-boundary.md). Without it,
 * a missing or replaced bundle would make `node` exit 1, which Claude Code treats as "no objection": every guard
 * off. The loader fails closed instead: when a checked bundle is missing or its hash differs from what init
 * installed, a tool call that could write is refused with the next step, the session is told, and read-only tools
 * still work so the agent can explain. The agent cannot change the loader: it is a trust path.
 */
export function hookLoaderSource(input: LoaderInput): string {
  const install = installCommand(input.setup, input.version);
  const steps = {
    install,
    // The installed package is another version: a teammate pulled a setup made with another one, or the user
    // updated the package without upgrading the setup.
    otherVersion:
      input.setup === "npm"
        ? `\`npm install\` (if the setup was upgraded in git) or \`${upgradeCommand("npm", input.cli)}\` (to set it up for the version installed)`
        : `\`${install}\``,
    reinstall:
      input.setup === "npm"
        ? "`rm -rf node_modules/playbook-kit && npm install`"
        : `\`${install}\``,
    where: input.setup === "runtime" ? ".claude/playbook" : "node_modules",
  };
  return `// Written by \`playbook init\` (playbook-kit ${input.version}); \`playbook upgrade\` rewrites it. Do not edit.
// Every hook handler runs this file. It refuses tool calls that could write when playbook's hook is missing or
// is not the one installed, instead of letting a missing file switch every guard off.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const DIST = ${input.distExpression};
const EXPECTED = ${JSON.stringify(input.hashes)};
const VERSION = ${JSON.stringify(input.version)};
const CLI = ${JSON.stringify(input.cli)};
const STEPS = ${JSON.stringify(steps)};
const READ_ONLY = new Set(["Read", "Glob", "Grep", "LS", "NotebookRead", "TodoWrite", "TodoRead", "WebSearch", "WebFetch"]);

// Where the loader notes the files it hashed: a file whose inode, size, mtime and ctime are the ones noted is the one
// hashed (a write changes the ctime, which no process can set back), so a call does not load node:crypto. The
// folder is a trust path: the agent's shell cannot write the note.
const STAMP = path.join(__dirname, "..", "playbook", "cache", "loader-check.json");

function readStamp() {
  try {
    return JSON.parse(fs.readFileSync(STAMP, "utf8"));
  } catch {
    return {};
  }
}

function statOf(file) {
  const s = fs.statSync(file);
  return [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs].join(":");
}

// A git worktree has no node_modules (or runtime copy) of its own until it is installed there: say where.
function installHere() {
  const root = path.join(__dirname, "..", "..");
  let gitFile = "";
  try {
    gitFile = fs.readFileSync(path.join(root, ".git"), "utf8");
  } catch {}
  const gitDir = ((/^gitdir: (.*)$/m.exec(gitFile) || [])[1] || "").trim();
  return gitDir && path.basename(path.dirname(gitDir)) === "worktrees"
    ? \` in \${root} (a git worktree has its own \${STEPS.where}: install in each one)\`
    : "";
}

function problem() {
  const stamp = readStamp();
  const seen = {};
  let crypto = null;
  for (const name of Object.keys(EXPECTED)) {
    const file = path.join(DIST, name);
    let stat;
    try {
      stat = statOf(file);
    } catch {
      return \`playbook's hook is not installed (\${file} is missing). Next: ask the user to run \\\`\${STEPS.install}\\\`\${installHere()} in a terminal, then to start Claude Code again.\`;
    }
    seen[name] = { stat, sha256: EXPECTED[name] };
    const noted = stamp[name];
    if (noted && noted.stat === stat && noted.sha256 === EXPECTED[name]) continue;
    let data;
    try {
      data = fs.readFileSync(file);
    } catch {
      return \`playbook's hook is not installed (\${file} cannot be read). Next: ask the user to run \\\`\${STEPS.install}\\\`\${installHere()} in a terminal, then to start Claude Code again.\`;
    }
    crypto = crypto || require("node:crypto");
    if (crypto.createHash("sha256").update(data).digest("hex") !== EXPECTED[name]) {
      let installed = "";
      try {
        installed = JSON.parse(fs.readFileSync(path.join(DIST, "..", "package.json"), "utf8")).version;
      } catch {}
      return installed && installed !== VERSION
        ? \`playbook-kit \${installed} is installed, but the hooks were set up for \${VERSION}. Next: ask the user to run \${STEPS.otherVersion} in a terminal.\`
        : \`playbook's hook (\${name}) is not the one \\\`playbook init\\\` installed. Next: ask the user to reinstall it (\${STEPS.reinstall}) in a terminal.\`;
    }
  }
  if (crypto !== null) noteStamp(seen);
  return null;
}

function noteStamp(seen) {
  try {
    fs.mkdirSync(path.dirname(STAMP), { recursive: true });
    const temp = \`\${STAMP}.\${process.pid}.tmp\`;
    fs.writeFileSync(temp, JSON.stringify(seen));
    fs.renameSync(temp, STAMP);
  } catch {}
}

function refuse(event, why) {
  const say = (json) => process.stdout.write(JSON.stringify(json));
  if (event === "statusline") return process.stdout.write(\`playbook: hook not working, run \${CLI} doctor\\n\`);
  if (event === "SessionStart" || event === "UserPromptSubmit")
    return say({ hookSpecificOutput: { hookEventName: event, additionalContext: \`playbook is not enforcing anything: \${why}\` }, systemMessage: \`playbook: \${why}\` });
  if (event !== "PreToolUse") return;
  let input = "";
  try {
    input = fs.readFileSync(0, "utf8");
  } catch {}
  let tool = "";
  try {
    tool = String(JSON.parse(input).tool_name || "");
  } catch {}
  if (READ_ONLY.has(tool)) return;
  say({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: \`Blocked: \${why}\` } });
}

if (process.env.PLAYBOOK_DISABLE !== "1") {
  const why = problem();
  if (why === null) require(path.join(DIST, "hook.cjs"));
  else refuse(process.argv[2], why);
}
`;
}
