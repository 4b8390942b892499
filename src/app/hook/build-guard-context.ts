import type { CliSetup } from "../../core/scaffold/cli-spelling.ts";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { hasUncommittedTrackedChanges } from "../../adapters/git-dirty.ts";
import type { Summarize } from "../../adapters/parse-cache.ts";
import { readGitHead } from "../../adapters/read-git-head.ts";
import { guardedRepositoryPlaces } from "../../adapters/repository-places.ts";
import { readRecords } from "../../adapters/record-store.ts";
import {
  readFailOpen,
  readPostLoopLock,
  readUnfinishedArchive,
} from "../../adapters/runtime-files.ts";
import { readSessionReads } from "../../adapters/session-store.ts";
import type {
  PlaybookSummary,
  StateSummary,
} from "../../core/model/summary.ts";
import type { HookEvent } from "../../core/guards/events.ts";
import {
  BUILT_IN_RULES,
  parseProtectedRules,
} from "../../core/guards/protected-rules.ts";
import { claimsProof } from "../../core/guards/playbook-changes.ts";
import type { FileChange, GuardContext } from "../../core/guards/types.ts";
import { toForwardSlashes } from "../../core/paths/repo-path.ts";
import { createRecordSet } from "../../core/records/record-set.ts";
import type { RecordKey } from "../../core/records/record.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../../core/validate/active-path.ts";
import type { HookPayload } from "../../hooks/payload.ts";
import { currentTreeFingerprint } from "../workspace/current-tree.ts";
import type { ReadBashCall } from "./read-bash-call.ts";
import type { ToolCall, ToolCallInput } from "./read-tool-call.ts";
import { claudeConfigPaths } from "../../core/paths/claude-config.ts";
import { readSandboxAllowWrite } from "../../adapters/sandbox-allow-write.ts";
import { readConfig } from "../workspace/read-config.ts";
import { readWorkspaceSummary } from "../workspace/read-workspace-summary.ts";

export interface ContextInput {
  event: HookEvent;
  payload: HookPayload;
  projectDir: string;
  summarize: Summarize;
  /**
   * Reads what a tool call would change (hook/read-tool-call.ts). Only the tool bundle passes it, so the session
   * events' bundle does not carry the shell and edit analysis.
   */
  readToolCall?: (input: ToolCallInput) => ToolCall;
  /** The shell analysis (hook/read-bash-call.ts, in its own bundle), for `readToolCall`. */
  readBashCall?: ReadBashCall;
  /**
   * Reads the working tree's fingerprint when the call claims proof; by default now. The PreToolUse hook passes its
   * own, which answers null, and fills the fingerprint in from a reading it started before the context.
   */
  readTree?: (projectDir: string) => string | null;
  /** How this project runs playbook, from where the hook runs (`setupOfDist`). */
  cliSetup?: CliSetup;
  /** The running hook's own CLI (`dist/cli.mjs` beside it): the shell analysis does not read it as a script. */
  ownCli?: string;
}

/** Reads everything the guards may look at for one call (plan, then apply: guards get plain data). */
export function buildGuardContext(input: ContextInput): GuardContext {
  const { event, payload, summarize } = input;
  const projectDir = toForwardSlashes(realOrSelf(input.projectDir));
  const workspace = readWorkspaceSummary(projectDir, summarize);
  const state = workspace.state;
  const toolName = payload.tool_name ?? null;
  const toolInput = payload.tool_input ?? {};
  const cwd =
    typeof payload.cwd === "string" && payload.cwd !== ""
      ? payload.cwd
      : projectDir;
  const homeDir = safe(() => toForwardSlashes(realOrSelf(homeFolder())));
  // Only the shell analysis reads it (`d=$(mktemp -d)`): no realpath on the other tools' calls.
  const tmpDir =
    toolName === "Bash" ? toForwardSlashes(realOrSelf(mktempFolder())) : null;
  const security = readConfig(projectDir).config.security;
  const call =
    event === "PreToolUse" &&
    toolName !== null &&
    input.readToolCall &&
    input.readBashCall
      ? input.readToolCall({
          projectDir,
          cwd,
          homeDir,
          tmpDir,
          shellTempDirs:
            toolName === "Bash" ? shellTempFolders(security !== "strict") : [],
          ...(input.ownCli === undefined ? {} : { ownCli: input.ownCli }),
          toolName,
          toolInput,
          summarize,
          readBashCall: input.readBashCall,
        })
      : null;
  const bash = call?.bash ?? null;
  const changes = call?.changes ?? [];
  const activePath = workspace.active?.path ?? null;
  const reachesOutside =
    changes.some((c) => c.path === null) ||
    (call?.unknownToolOutsidePaths?.length ?? 0) > 0;
  return {
    event,
    toolName,
    toolInput,
    agentType: subagentType(payload),
    sessionId: payload.session_id ?? null,
    projectDir,
    cwd,
    ...(input.cliSetup === undefined ? {} : { cliSetup: input.cliSetup }),
    security,
    state,
    stateProblem: describeStateProblem(projectDir, state),
    active: workspace.active,
    activeProblem: describeActiveProblem(state, workspace.active),
    git: {
      ...readGitHead(projectDir),
      dirtyTracked: call?.mayDiscardWork
        ? hasUncommittedTrackedChanges(projectDir)
        : null,
    },
    lock: readPostLoopLock(projectDir),
    unfinishedArchive: state?.playbook.active
      ? null
      : readUnfinishedArchive(projectDir),
    ...readProtectedRules(projectDir),
    records: createRecordSet(loadRecords(projectDir, activePath, changes)),
    tree: claimsProof(changes)
      ? (input.readTree ?? currentTreeFingerprint)(projectDir)
      : null,
    changes,
    ...(call?.unknownToolPaths
      ? { unknownToolPaths: call.unknownToolPaths }
      : {}),
    ...(call?.unknownToolOutsidePaths
      ? { unknownToolOutsidePaths: call.unknownToolOutsidePaths }
      : {}),
    // Only a change outside the repository can reach them: no realpath on the other calls.
    ...(reachesOutside
      ? {
          claudeConfigPaths: resolvedClaudeConfigPaths(homeDir),
          repositoryPlaces: guardedRepositoryPlaces(projectDir),
          sandboxAllowWrite: readSandboxAllowWrite(projectDir, homeDir),
        }
      : { claudeConfigPaths: [] }),
    bash,
    failOpen: readFailOpen(projectDir),
    ...(call?.bash ? { readOnlyShell: call.readOnlyShell } : {}),
    reads: payload.session_id
      ? readSessionReads(projectDir, payload.session_id)
      : null,
    claudeMdExists: existsSync(join(projectDir, "CLAUDE.md")),
    tempDirs: tempDirs(),
    homeDir,
    lastAssistantMessage:
      typeof payload.last_assistant_message === "string"
        ? payload.last_assistant_message
        : null,
  };
}

function describeStateProblem(
  projectDir: string,
  state: StateSummary | null,
): string | null {
  if (!state)
    return existsSync(join(projectDir, "state.md"))
      ? "state.md cannot be read."
      : "state.md is missing.";
  const error = state.diagnostics.find((d) => d.severity === "error");
  return error ? `state.md:${error.line}: ${error.message}` : null;
}

function describeActiveProblem(
  state: StateSummary | null,
  active: { path: string; summary: PlaybookSummary } | null,
): string | null {
  const named = state?.playbook.active;
  if (!named) return null;
  if (!active) {
    const unsafe = explainUnsafeActivePath(named);
    return unsafe
      ? `\`active: ${named}\` in state.md is not used: ${unsafe}.`
      : `\`${normaliseActivePath(named)}\` (active in state.md) does not exist.`;
  }
  const error = active.summary.diagnostics.find((d) => d.severity === "error");
  return error ? `${active.path}:${error.line}: ${error.message}` : null;
}

function readProtectedRules(
  projectDir: string,
): Pick<GuardContext, "protectedRules" | "protectedProblems"> {
  const file = ".claude/protected-files.txt";
  let text: string;
  try {
    text = readFileSync(join(projectDir, file), "utf8");
  } catch {
    return { protectedRules: BUILT_IN_RULES, protectedProblems: [] };
  }
  const parsed = parseProtectedRules(text, file);
  return {
    protectedRules: [...BUILT_IN_RULES, ...parsed.rules],
    protectedProblems: parsed.diagnostics.map(
      (d) => `${d.file}:${d.line}: ${d.message}`,
    ),
  };
}

function loadRecords(
  projectDir: string,
  activePath: string | null,
  changes: readonly FileChange[],
) {
  const records = [];
  const edited = new Set(
    changes.flatMap((c) =>
      c.document?.kind === "playbook" && c.path ? [c.path] : [],
    ),
  );
  for (const path of edited) records.push(...readRecords(projectDir, path));
  if (activePath && !edited.has(activePath)) {
    const review: RecordKey = {
      kind: "review",
      playbook: activePath,
      target: "playbook",
    };
    records.push(...readRecords(projectDir, activePath, [review]));
  }
  return records;
}

/** From the environment where it says; `node:os` costs the hook ~2 ms to load, so only as a fallback. */
/**
 * Claude Code's configuration outside the project, each as named and as resolved: a change's path is resolved, and
 * `~/.claude` is often a link into a dotfiles folder.
 */
function resolvedClaudeConfigPaths(homeDir: string | null): string[] {
  const configDir = process.env["CLAUDE_CONFIG_DIR"] || null;
  const named = claudeConfigPaths({
    homeDir,
    configDir: configDir === null ? null : toForwardSlashes(configDir),
  });
  return [
    ...new Set(
      named.flatMap((p) => [p, safe(() => toForwardSlashes(realOrSelf(p)))]),
    ),
  ].filter((p): p is string => p !== null);
}

function homeFolder(): string {
  return (
    process.env["HOME"] ??
    process.env["USERPROFILE"] ??
    process.getBuiltinModule("node:os").homedir()
  );
}

/** Where `mktemp` makes new names: TMPDIR, else /tmp (read as mktemp reads it, not as `os.tmpdir()` does). */
function mktempFolder(): string {
  return process.env["TMPDIR"] || "/tmp";
}

/**
 * The values `$TMPDIR` may have in the agent's shell ("" for unset). Claude Code's sandbox gives it
 * CLAUDE_CODE_TMPDIR, else CLAUDE_TMPDIR (which Claude Code sets for its hooks and shell), else /tmp/claude; a shell
 * outside the sandbox keeps the TMPDIR Claude Code itself got, which the hook inherits. Strict mode runs no shell
 * outside the sandbox (Claude Code refuses to start without it). A value the shell would split or glob is left out.
 */
function shellTempFolders(unsandboxedToo: boolean): string[] {
  const env = process.env;
  const values = [
    env["CLAUDE_CODE_TMPDIR"] || env["CLAUDE_TMPDIR"] || "/tmp/claude",
    ...(unsandboxedToo ? [env["TMPDIR"] ?? ""] : []),
  ].map((dir) =>
    dir === ""
      ? ""
      : toForwardSlashes(realOrSelf(dir)).replace(/(?<=.)\/+$/, ""),
  );
  return values.every((v) => v === "" || /^\/[^\s*?[\]$`\\'"]*$/.test(v))
    ? [...new Set(values)]
    : [];
}

function tempDirs(): string[] {
  const dirs = new Set(["/tmp", "/var/tmp"]);
  for (const dir of [
    "/tmp",
    process.env["TMPDIR"],
    process.env["TEMP"],
    process.env["TMP"],
    process.env["CLAUDE_CODE_TMPDIR"],
    process.env["CLAUDE_TMPDIR"],
  ])
    if (dir) dirs.add(toForwardSlashes(realOrSelf(dir)).replace(/\/$/, ""));
  return [...dirs];
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function safe<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/**
 * The subagent making the call, or null for the main agent. Claude Code sets `agent_type` also for a main session
 * started with `claude --agent reviewer` (which the agent's own Bash can start); only a subagent's call carries
 * `agent_id`, so a verdict role is granted only with both.
 */
export function subagentType(payload: {
  agent_type?: string | null;
  agent_id?: unknown;
}): string | null {
  return typeof payload.agent_type === "string" &&
    payload.agent_type !== "" &&
    typeof payload.agent_id === "string" &&
    payload.agent_id !== ""
    ? payload.agent_type
    : null;
}
