import type { CliSetup } from "../scaffold/cli-spelling.ts";
import type { BashAnalysis } from "../bash/types.ts";
import type { PlaybookSummary, StateSummary } from "../model/summary.ts";
import type { SecurityMode } from "../model/state.ts";
import type { TreeState } from "../records/proof-state.ts";
import type { RecordSet } from "../records/record.ts";
import type { HookEvent } from "./events.ts";
import type { ProtectedRule } from "./protected-rules.ts";

/** A guard's answer. `block` reasons are read by the model: they say what to do next. */
export type Decision =
  | { kind: "allow" }
  | { kind: "block"; reason: string }
  | { kind: "context"; text: string };

/** Something the runtime does after deciding (plan, then apply): guards never do I/O themselves. */
export type Effect =
  | {
      kind: "grant";
      grant: {
        kind: "review" | "crit";
        agentType: string;
        sessionId: string | null;
        command: string;
      };
    }
  | { kind: "session-read"; path: string }
  /** Run `playbook <args>` as the hook's own job and show the agent its output instead of running the command. */
  | { kind: "trusted-command"; args: string[] };

/** The documents a tool call changes, before and after, as the parser sees them. */
export type DocumentChange =
  | {
      kind: "playbook";
      before: PlaybookSummary | null;
      /** null when the call deletes it or its new content could not be computed (see `afterProblem`). */
      after: PlaybookSummary | null;
      afterProblem: string | null;
    }
  | {
      kind: "state";
      before: StateSummary | null;
      after: StateSummary | null;
      afterProblem: string | null;
    };

/** One file a tool call would change. */
export interface FileChange {
  /** Repository-relative POSIX path; null when the file is outside the repository. */
  path: string | null;
  /** Absolute POSIX path after resolving `..` and symlinks (for messages and `rm -rf` checks). */
  absolute: string;
  /** The path as the tool call wrote it. */
  raw: string;
  tool: "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "Bash";
  /** `link`: the target of a link the command creates; later writes through the link would reach it unchecked. */
  op: "edit" | "write" | "append" | "delete" | "move" | "inline-code" | "link";
  /** The shell command that makes the change (Bash only). */
  command: string | null;
  /** Whether the path holds an expansion (`$VAR`, a glob) whose value is unknown. */
  dynamic: boolean;
  /** For a glob (`*.pyc`, `dist/**`): the absolute pattern; `absolute` is then the folder it starts in. */
  glob?: string;
  /** For Edit/Write/MultiEdit of `state.md` or a playbook: both versions, parsed. */
  document: DocumentChange | null;
}

export interface PostLoopLock {
  /** success, partial, or pending (the merge is left to GitHub or a person, `archive.merge`). */
  status: string;
  playbook: string | null;
  pr: string | null;
  at: string | null;
  session: string | null;
  /** While `pending`: what the merge waits for, and what comes next. */
  pending?: LockPending | null;
}

/** What a pending merge waits for, and what comes next (docs/archive.md#merge-policies). */
export interface LockPending {
  kind: string;
  what: string;
  next: string;
}

/** Everything a guard may look at: plain data, built by the runtime before any guard runs. */
export interface GuardContext {
  event: HookEvent;
  /** `Task` is reported as `Agent` (renamed in Claude Code 2.1.63). */
  toolName: string | null;
  toolInput: Record<string, unknown>;
  /** The subagent making the call (`reviewer`, `critic`, `plugin:critic`), or null for the main agent. */
  agentType: string | null;
  sessionId: string | null;
  /** The project the hook was started for (Claude Code's `CLAUDE_PROJECT_DIR`): every trusted job runs here. */
  projectDir: string;
  /** Where the agent's shell is (the payload's `cwd`): only relative paths in its command are read from it. */
  cwd: string;
  /** How this project runs playbook, from where the hook runs (`setupOfDist`); absent in tests of single guards. */
  cliSetup?: CliSetup;
  security: SecurityMode;
  state: StateSummary | null;
  /** Why `state.md` cannot be trusted (missing, unreadable, or its first error with file and line), else null. */
  stateProblem: string | null;
  active: { path: string; summary: PlaybookSummary } | null;
  /** Why the active playbook cannot be used (missing file, unsafe path, errors), else null. */
  activeProblem: string | null;
  git: {
    /** null when HEAD is detached or there is no repository. */
    branch: string | null;
    defaultBranch: string | null;
    /** Whether tracked files have uncommitted changes; null when not computed (only Bash calls that could lose work ask). */
    dirtyTracked: boolean | null;
  };
  lock: PostLoopLock | null;
  /** An archive that stopped before finishing (read only while no playbook is active): its branch and playbook. */
  unfinishedArchive: { branch: string; playbook: string } | null;
  protectedRules: readonly ProtectedRule[];
  /** Problems of `.claude/protected-files.txt` (`file:line: message`), reported by the coherence guard. */
  protectedProblems: readonly string[];
  records: RecordSet;
  /**
   * The working tree's fingerprint (adapters/tree-fingerprint.ts), read only when an edit claims proof (a tick, a
   * PASS, a phase `done`); null when not read or outside a git repository; git's words when git could not read the
   * tree of a repository (see `TreeState`): it proves no evidence.
   */
  tree: TreeState;
  changes: FileChange[];
  /**
   * For a tool the guards do not know (an MCP server's): the repository paths its input names, resolved (`~`,
   * `file://`, `..`, symlinks). Absent for the tools the guards understand.
   */
  unknownToolPaths?: readonly string[];
  /** For a tool the guards do not know: the absolute paths outside the repository its input names, resolved. */
  unknownToolOutsidePaths?: readonly string[];
  /** Claude Code's own configuration outside the project (core/paths/claude-config.ts), absolute and resolved. */
  claudeConfigPaths: readonly string[];
  /**
   * The repository's git folder and, in its other working trees (parallel sessions), the paths guarded there
   * (adapters/repository-places.ts), absolute and resolved. Read only when a change reaches outside the project.
   */
  repositoryPlaces?: readonly string[];
  /**
   * Folders outside the project that Claude Code's sandbox lets the agent's shell write (its settings'
   * `sandbox.filesystem.allowWrite`), absolute and resolved. Read only when a change reaches outside the project.
   */
  sandboxAllowWrite?: readonly string[];
  bash: BashAnalysis | null;
  /**
   * Why `.claude/settings.json` would let a failed PreToolUse hook through (no `"onFailure": "block"`), as the last
   * SessionStart found it; null when sound. The init guard then refuses every call that could change something.
   */
  failOpen: string | null;
  /**
   * For a Bash call: whether the line provably changes no file (core/bash/read-only.ts). Anything else gets a
   * snapshot of the uncommitted work before it runs. Absent for other tools.
   */
  readOnlyShell?: boolean;
  /** Repository paths Read in this session (init guard); null when the session is unknown. */
  reads: readonly string[] | null;
  claudeMdExists: boolean;
  /** Temporary folders where `rm -rf` is harmless. */
  tempDirs: readonly string[];
  homeDir: string | null;
  /** Last assistant message of Stop/SubagentStop. */
  lastAssistantMessage: string | null;
}

export interface Guard {
  /** Kebab id users can grep in logs, e.g. `subtask`. */
  id: string;
  /** The docs/guards.md number, for docs and the order guards run in. */
  number: number;
  events: readonly HookEvent[];
  /**
   * Whether a throw blocks at every event. At PreToolUse any throwing guard blocks the call; elsewhere only a
   * fail-closed one does, and the others are reported and skipped.
   */
  failClosed?: boolean;
  check(ctx: GuardContext): GuardResult;
}

export interface GuardResult {
  decision: Decision;
  effects?: Effect[];
}
