import { withPlaybookCalls } from "../../src/core/guards/trusted-args.ts";
import { toAbsolute } from "../../src/core/paths/repo-path.ts";
import { analyzeBash } from "../../src/core/bash/analyze-bash.ts";
import type {
  PlaybookSummary,
  StateSummary,
} from "../../src/core/model/summary.ts";
import { BUILT_IN_RULES } from "../../src/core/guards/protected-rules.ts";
import type { FileChange, GuardContext } from "../../src/core/guards/types.ts";
import { summarizeDocument } from "../../src/core/parse/summarize-document.ts";
import {
  phaseHash,
  reviewHash,
  subtaskHash,
} from "../../src/core/records/content-hash.ts";
import { createRecordSet } from "../../src/core/records/record-set.ts";
import type { PlaybookRecord } from "../../src/core/records/record.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "./sample-docs.ts";

export const ROOT = "/repo";
export const BOOK = "plan/playbook-login-form.md";
export const REVIEWED = SAMPLE_PLAYBOOK.replace(
  "reviewed: false",
  "reviewed: true",
);

export function playbookOf(text: string): PlaybookSummary {
  return summarizeDocument("playbook", text, BOOK) as PlaybookSummary;
}

export function stateOf(text: string): StateSummary {
  return summarizeDocument("state", text, "state.md") as StateSummary;
}

/** A record whose hash matches `playbook` as given (a review, a critic verdict, evidence or a confirmation). */
export function recordFor(
  playbook: PlaybookSummary,
  record: Omit<
    PlaybookRecord,
    "contentHash" | "at" | "by" | "detail" | "playbook"
  > & { by?: string },
): PlaybookRecord {
  const hash =
    record.kind === "review"
      ? reviewHash(playbook)
      : record.kind === "critic"
        ? phaseHash(playbook, record.target)
        : subtaskHash(playbook, record.target);
  return {
    playbook: BOOK,
    by: "test",
    detail: {},
    at: "2026-11-22T00:00:00Z",
    contentHash: hash ?? "none",
    ...record,
  };
}

/** A write of `path` by Edit (no document), as the runtime would describe it. */
export function fileChange(
  path: string,
  extra: Partial<FileChange> = {},
): FileChange {
  return {
    path,
    absolute: `${ROOT}/${path}`,
    raw: `${ROOT}/${path}`,
    tool: "Edit",
    op: "edit",
    command: null,
    dynamic: false,
    document: null,
    ...extra,
  };
}

/** An Edit of the playbook from `before` to `after` text. */
export function playbookEdit(before: string | null, after: string): FileChange {
  return fileChange(BOOK, {
    document: {
      kind: "playbook",
      before: before === null ? null : playbookOf(before),
      after: playbookOf(after),
      afterProblem: null,
    },
  });
}

/** Bash changes as the runtime resolves them for a command run at the repository root. */
export function bashChanges(
  command: string,
  cwd: string = ROOT,
): Pick<GuardContext, "bash" | "changes" | "toolInput" | "toolName"> {
  const bash = withPlaybookCalls(analyzeBash(command), {
    projectDir: ROOT,
    cwd,
  });
  const changes = bash.writes.map((w): FileChange => {
    const absolute = w.path.startsWith("/")
      ? w.path
      : `${ROOT}/${w.path}`.replace(/\/\.$/, "");
    const inside =
      absolute === ROOT
        ? ""
        : absolute.startsWith(`${ROOT}/`)
          ? absolute.slice(ROOT.length + 1)
          : null;
    return {
      path: inside,
      absolute,
      raw: w.path,
      tool: "Bash",
      op: w.op,
      command: w.command,
      dynamic: /[$*?]/.test(w.path),
      document: null,
      ...(/[*?[]/.test(w.path) && !/[$`]/.test(w.path)
        ? { glob: toAbsolute(ROOT, w.path) }
        : {}),
    };
  });
  return { bash, changes, toolInput: { command }, toolName: "Bash" };
}

/** `records` with the reviewer's approval of the sample playbook as reviewed (checkboxes and statuses aside). */
export function approvedRecords(records: readonly PlaybookRecord[]) {
  return createRecordSet([
    recordFor(playbookOf(REVIEWED), {
      kind: "review",
      target: "playbook",
      verdict: "approve",
    }),
    ...records,
  ]);
}

/**
 * The context of a PreToolUse call in a healthy project: on the playbook's branch, `state.md` and the reviewed
 * sample playbook with its review record, everything read this session, no changes.
 */
export function guardContext(
  overrides: Partial<GuardContext> = {},
): GuardContext {
  const active = playbookOf(REVIEWED);
  return {
    event: "PreToolUse",
    toolName: "Edit",
    toolInput: {},
    agentType: null,
    sessionId: "s",
    projectDir: ROOT,
    cwd: ROOT,
    failOpen: null,
    security: "strict",
    state: stateOf(SAMPLE_STATE),
    stateProblem: null,
    active: { path: BOOK, summary: active },
    activeProblem: null,
    git: {
      branch: "feat/login-form",
      defaultBranch: "main",
      dirtyTracked: null,
    },
    lock: null,
    unfinishedArchive: null,
    protectedRules: BUILT_IN_RULES,
    protectedProblems: [],
    records: createRecordSet([
      recordFor(active, {
        kind: "review",
        target: "playbook",
        verdict: "approve",
      }),
    ]),
    tree: null,
    changes: [],
    bash: null,
    reads: ["CLAUDE.md", "state.md", BOOK],
    claudeMdExists: true,
    tempDirs: ["/tmp"],
    homeDir: "/home/u",
    claudeConfigPaths: [
      "/etc/claude-code",
      "/home/u/.claude",
      "/home/u/.claude.json",
    ],
    lastAssistantMessage: null,
    ...overrides,
  };
}
