import { readBounded } from "../../adapters/read-bounded.ts";
import {
  maxDocumentBytes,
  oversizeMessage,
} from "../../core/paths/input-limits.ts";
import { join } from "node:path";
import {
  readSummaryCached,
  type Summarize,
} from "../../adapters/parse-cache.ts";
import { resolveRealPath } from "../../adapters/resolve-real-path.ts";
import type { BashAnalysis } from "../../core/bash/types.ts";
import { simulateToolEdit } from "../../core/edit/simulate-tool-edit.ts";
import {
  tickedSummary,
  type HashPhase,
} from "../../core/edit/checkbox-ticks.ts";
import { phaseHashSource } from "../../core/records/content-hash.ts";
import { sha256Text } from "../../adapters/sha256-text.ts";
import { gitArgs } from "../../core/guards/command-words.ts";
import type { DocumentChange, FileChange } from "../../core/guards/types.ts";
import {
  isPlaybookPath,
  isStatePath,
  toRepoPath,
} from "../../core/paths/repo-path.ts";
import { expandTilde } from "../../core/bash/expand-tilde.ts";
import type { ReadBashCall } from "./read-bash-call.ts";
import { unknownToolPaths } from "./unknown-tool-paths.ts";
import { isKnownTool } from "../../core/guards/unknown-tool.ts";

/** A playbook bigger than this is not parsed on the hook path: micromark would take seconds (a tick is not parsed). */
const MAX_CHECKED_DOCUMENT = 1024 * 1024;

export interface ToolCallInput {
  projectDir: string;
  cwd: string;
  homeDir: string | null;
  /** The temp folder `mktemp` makes new names in. */
  tmpDir: string | null;
  /** The values `$TMPDIR` may have in the agent's shell ("" for unset); none when unknown. */
  shellTempDirs: readonly string[];
  /** The CLI of the playbook running this hook, which is not read as a script the agent wrote. */
  ownCli?: string;
  toolName: string;
  toolInput: Record<string, unknown>;
  summarize: Summarize;
  /** The shell analysis, from its own bundle: only Bash calls load it. */
  readBashCall: ReadBashCall;
}

export interface ToolCall {
  bash: BashAnalysis | null;
  changes: FileChange[];
  /** For Bash: whether the line provably changes no file (no snapshot before it); false for every other tool. */
  readOnlyShell: boolean;
  /** A git command that can throw away uncommitted work (reset, checkout, restore, read-tree, ...): the guard then asks git. */
  mayDiscardWork: boolean;
  /** For a tool the guards do not know: the repository paths its input names. */
  unknownToolPaths?: string[];
  /** For a tool the guards do not know: the absolute paths outside the repository its input names. */
  unknownToolOutsidePaths?: string[];
}

/** What a PreToolUse call would change: the shell command's analysis, and each file it writes, resolved. */
export function readToolCall(input: ToolCallInput): ToolCall {
  const { toolName, toolInput } = input;
  const command = toolInput["command"];
  const shell =
    (toolName === "Bash" || toolName === "PowerShell") &&
    typeof command === "string"
      ? input.readBashCall(input, command)
      : null;
  const bash = shell?.bash ?? null;
  if (!isKnownTool(toolName)) {
    const named = unknownToolPaths(input);
    return {
      bash,
      changes: [],
      readOnlyShell: false,
      mayDiscardWork: false,
      unknownToolPaths: named.inside,
      unknownToolOutsidePaths: named.outside,
    };
  }
  return {
    bash,
    changes: shell?.changes ?? collectChanges({ ...input, bash }),
    readOnlyShell: toolName === "Bash" && shell?.readOnly === true,
    mayDiscardWork: bash !== null && mayDiscardWork(bash),
  };
}

type ChangeInput = ToolCallInput & { bash: BashAnalysis | null };

function mayDiscardWork(bash: BashAnalysis): boolean {
  return bash.commands.some((c) => {
    const sub = gitArgs(c.argv)?.[0];
    return (
      sub === "reset" ||
      sub === "checkout" ||
      sub === "restore" ||
      sub === "switch" ||
      sub === "read-tree" ||
      sub === "checkout-index"
    );
  });
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
  return [];
}

function locate(
  input: ChangeInput,
  cwd: string,
  raw: string,
): { path: string | null; absolute: string } {
  const absolute = resolveRealPath(cwd, expandTilde(raw, cwd, input.homeDir));
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
  let beforeText: string | null = null;
  let oversize: string | null = null;
  try {
    const limit = maxDocumentBytes(kind);
    const read = readBounded(join(input.projectDir, path), limit);
    if (read.truncated) oversize = oversizeMessage(path, read.size, limit);
    else beforeText = read.text;
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
  // Too large to read: only a Write, which replaces it whole, can repair it.
  if (oversize !== null && tool !== "Write") afterProblem = oversize;
  else if (simulated.kind !== "content") afterProblem = simulated.reason;
  else {
    // A tick is derived from the cached summary without parsing, so it is checked at any size.
    const ticked =
      kind === "playbook" && before?.kind === "playbook" && beforeText !== null
        ? tickedSummary(beforeText, simulated.text, before, hashPhase)
        : null;
    if (ticked) after = ticked;
    else if (simulated.text.length > MAX_CHECKED_DOCUMENT)
      afterProblem = `the new content is ${Math.round(simulated.text.length / 1024)} KB, more than the 1024 KB a playbook document may have`;
    else after = input.summarize(kind, simulated.text, path);
  }
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

const hashPhase: HashPhase = (playbook, phaseId) => {
  const source = phaseHashSource(playbook, phaseId);
  return source === null ? null : sha256Text(source);
};
