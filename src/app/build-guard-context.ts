import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { hasUncommittedTrackedChanges } from "../adapters/git-dirty.ts";
import { readSummaryCached, type Summarize } from "../adapters/parse-cache.ts";
import { readGitHead } from "../adapters/read-git-head.ts";
import { readRecords } from "../adapters/record-store.ts";
import { resolveRealPath } from "../adapters/resolve-real-path.ts";
import {
  readPostLoopLock,
  readUnfinishedArchive,
} from "../adapters/runtime-files.ts";
import { readSessionReads } from "../adapters/session-store.ts";
import type { BashAnalysis } from "../core/bash/types.ts";
import type { PlaybookSummary, StateSummary } from "../core/cache/summary.ts";
import { simulateToolEdit } from "../core/edit/simulate-tool-edit.ts";
import type { HookEvent } from "../core/guards/events.ts";
import { gitArgs } from "../core/guards/command-words.ts";
import {
  BUILT_IN_RULES,
  parseProtectedRules,
} from "../core/guards/protected-rules.ts";
import type {
  DocumentChange,
  FileChange,
  GuardContext,
} from "../core/guards/types.ts";
import {
  isPlaybookPath,
  isStatePath,
  toForwardSlashes,
  toRepoPath,
} from "../core/paths/repo-path.ts";
import { createRecordSet } from "../core/records/record-set.ts";
import type { RecordKey } from "../core/records/record.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../core/validate/active-path.ts";
import type { HookPayload } from "../hooks/payload.ts";
import { collectBashChanges } from "./collect-bash-changes.ts";
import { withScriptFiles } from "./read-script-files.ts";
import { readWorkspaceSummary } from "./read-workspace-summary.ts";

/** A playbook bigger than this is not parsed on the hook path: micromark would take seconds. */
const MAX_CHECKED_DOCUMENT = 1024 * 1024;

export interface ContextInput {
  event: HookEvent;
  payload: HookPayload;
  projectDir: string;
  summarize: Summarize;
  analyzeBash: (command: string) => BashAnalysis;
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
  const bash =
    event === "PreToolUse" &&
    (toolName === "Bash" || toolName === "PowerShell") &&
    typeof toolInput["command"] === "string"
      ? withScriptFiles(
          { cwd, homeDir, analyzeBash: input.analyzeBash },
          input.analyzeBash(toolInput["command"]),
        )
      : null;
  const changes =
    event === "PreToolUse" && toolName !== null
      ? collectChanges({
          projectDir,
          cwd,
          homeDir,
          toolName,
          toolInput,
          bash,
          summarize,
        })
      : [];
  const activePath = workspace.active?.path ?? null;
  return {
    event,
    toolName,
    toolInput,
    agentType: subagentType(payload),
    sessionId: payload.session_id ?? null,
    projectDir,
    security: state?.config.security ?? "strict",
    state,
    stateProblem: describeStateProblem(projectDir, state),
    active: workspace.active,
    activeProblem: describeActiveProblem(state, workspace.active),
    git: {
      ...readGitHead(projectDir),
      dirtyTracked:
        bash && mayDiscardWork(bash)
          ? hasUncommittedTrackedChanges(projectDir)
          : null,
    },
    lock: readPostLoopLock(projectDir),
    unfinishedArchive: state?.playbook.active
      ? null
      : readUnfinishedArchive(projectDir),
    ...readProtectedRules(projectDir),
    records: createRecordSet(loadRecords(projectDir, activePath, changes)),
    changes,
    bash,
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

function mayDiscardWork(bash: BashAnalysis): boolean {
  return bash.commands.some((c) => {
    const sub = gitArgs(c.argv)?.[0];
    return sub === "reset" || sub === "checkout" || sub === "restore";
  });
}

interface ChangeInput {
  projectDir: string;
  cwd: string;
  homeDir: string | null;
  toolName: string;
  toolInput: Record<string, unknown>;
  bash: BashAnalysis | null;
  summarize: Summarize;
}

function collectChanges(input: ChangeInput): FileChange[] {
  const { toolName, toolInput } = input;
  if (toolName === "Edit" || toolName === "Write" || toolName === "MultiEdit") {
    const raw = toolInput["file_path"];
    if (typeof raw !== "string") return [];
    return [fileToolChange(input, toolName, raw)];
  }
  if (toolName === "NotebookEdit") {
    const raw = toolInput["notebook_path"];
    if (typeof raw !== "string") return [];
    return [
      {
        ...locate(input, input.cwd, raw),
        raw,
        tool: "NotebookEdit",
        op: "edit",
        command: null,
        dynamic: false,
        document: null,
      },
    ];
  }
  return input.bash ? collectBashChanges(input, input.bash) : [];
}

function locate(
  input: ChangeInput,
  cwd: string,
  raw: string,
): { path: string | null; absolute: string } {
  const expanded =
    input.homeDir && /^~(?:\/|$)/.test(raw)
      ? input.homeDir + raw.slice(1)
      : raw;
  const absolute = resolveRealPath(cwd, expanded);
  return { path: toRepoPath(input.projectDir, "/", absolute), absolute };
}

function fileToolChange(
  input: ChangeInput,
  tool: "Edit" | "Write" | "MultiEdit",
  raw: string,
): FileChange {
  const where = locate(input, input.cwd, raw);
  const change: FileChange = {
    ...where,
    raw,
    tool,
    op: tool === "Write" ? "write" : "edit",
    command: null,
    dynamic: false,
    document: null,
  };
  const path = where.path;
  if (path !== null && (isStatePath(path) || isPlaybookPath(path)))
    change.document = documentChange(input, path, tool);
  return change;
}

function documentChange(
  input: ChangeInput,
  path: string,
  tool: string,
): DocumentChange {
  const kind = isStatePath(path) ? "state" : "playbook";
  let beforeText: string | null;
  try {
    beforeText = readFileSync(join(input.projectDir, path), "utf8");
  } catch {
    beforeText = null;
  }
  const cached =
    beforeText === null
      ? null
      : readSummaryCached(input.projectDir, path, kind, input.summarize);
  const before = cached && cached.status !== "missing" ? cached.summary : null;
  const simulated = simulateToolEdit(tool, input.toolInput, beforeText);
  let after = null;
  let afterProblem: string | null = null;
  if (simulated.kind !== "content") afterProblem = simulated.reason;
  else if (simulated.text.length > MAX_CHECKED_DOCUMENT)
    afterProblem = `the new content is ${Math.round(simulated.text.length / 1024)} KB, more than the 1024 KB a playbook document may have`;
  else after = input.summarize(kind, simulated.text, path);
  return kind === "state"
    ? {
        kind,
        before: before?.kind === "state" ? before : null,
        after: after?.kind === "state" ? after : null,
        afterProblem,
      }
    : {
        kind,
        before: before?.kind === "playbook" ? before : null,
        after: after?.kind === "playbook" ? after : null,
        afterProblem,
      };
}

/** From the environment where it says; `node:os` costs the hook ~2 ms to load, so only as a fallback. */
function homeFolder(): string {
  return (
    process.env["HOME"] ??
    process.env["USERPROFILE"] ??
    process.getBuiltinModule("node:os").homedir()
  );
}

function tempDirs(): string[] {
  const dirs = new Set(["/tmp", "/var/tmp"]);
  for (const dir of [
    process.env["TMPDIR"],
    process.env["TEMP"],
    process.env["TMP"],
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
