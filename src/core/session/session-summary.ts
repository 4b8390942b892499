import type { PostLoopLock } from "../guards/types.ts";
import type { CompactSnapshot } from "./compact-snapshot.ts";
import { PLAN_STEP, type NextStep } from "./next-step.ts";

/** The active playbook as summaries show it. */
export interface PlaybookProgress {
  path: string;
  branch: string | null;
  goal: string;
  /** Whether `reviewed: true` is backed by a current review record. */
  reviewed: boolean;
  phase: { id: string; name: string; checked: number; total: number } | null;
  checked: number;
  total: number;
  next: NextStep;
  open: { id: string; criterion: string }[];
}

export interface SessionSummaryInput {
  source: string;
  playbook: PlaybookProgress | null;
  gitBranch: string | null;
  lock: PostLoopLock | null;
  /** Said when the lock of a session that is gone was cleared. */
  lockCleared: string | null;
  /** Problems with state.md, the playbook, the configuration or git, each one sentence with its fix. */
  problems: string[];
  /** On `compact`: what PreCompact saved, or why it cannot be used. */
  snapshot:
    | { ok: true; snapshot: CompactSnapshot }
    | { ok: false; problem: string }
    | null;
}

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).length;

/**
 * The text SessionStart injects: the active playbook, its phase and next step, open subtasks, the lock, problems,
 * and after compaction the saved snapshot, most important first. Lines that do not fit `maxBytes` are dropped
 * (a long line is cut), so the injected context stays inside its budget whatever the documents hold.
 */
export function renderSessionSummary(
  input: SessionSummaryInput,
  maxBytes: number,
): string {
  const lines: string[] = [];
  const snapshot = input.snapshot;
  if (snapshot?.ok) lines.push(...snapshotLines(snapshot.snapshot));
  else if (snapshot)
    lines.push(`playbook: ${snapshot.problem}; the current state follows.`);
  lines.push(...playbookLines(input));
  if (input.lockCleared) lines.push(input.lockCleared);
  for (const problem of input.problems) lines.push(`Problem: ${problem}`);
  return fit(lines, maxBytes);
}

/** The one line UserPromptSubmit adds to each prompt. */
export function renderPromptStatus(
  playbook: PlaybookProgress | null,
  lock: PostLoopLock | null,
  gitBranch: string | null,
): string {
  const parts: string[] = [];
  if (lock)
    parts.push(
      `post-loop lock set (${lock.playbook ?? "last playbook"} archived): run /post-loop`,
    );
  if (playbook) {
    parts.push(`${playbook.path}${playbook.reviewed ? "" : " (not reviewed)"}`);
    if (playbook.phase)
      parts.push(
        `${playbook.phase.id} ${playbook.phase.checked}/${playbook.phase.total}`,
      );
    parts.push(`${playbook.checked}/${playbook.total} subtasks`);
    parts.push(`next: ${shortStep(playbook.next)}`);
  } else if (!lock) parts.push("no active playbook");
  if (gitBranch) parts.push(`branch ${gitBranch}`);
  return cut(`playbook: ${parts.join(" · ")}`, 300);
}

function playbookLines(input: SessionSummaryInput): string[] {
  const lines: string[] = [];
  const lock = input.lock;
  if (lock)
    lines.push(
      `Post-loop lock: ${lock.playbook ?? "the last playbook"} was archived${lock.pr ? ` (PR ${lock.pr})` : ""} with status ${lock.status}${lock.pending ? ` (${lock.pending.what}; then: ${lock.pending.next})` : ""}. Next: run /post-loop (\`playbook post-loop\`) to pick the next task; until then only state.md and plan/ can change.`,
    );
  const p = input.playbook;
  if (!p) {
    if (!lock)
      lines.push(
        "No active playbook. Changes outside state.md and plan/ are refused until Skill(playbook-init) has written a playbook and the reviewer has approved it.",
      );
    if (input.gitBranch) lines.push(`Git branch: ${input.gitBranch}.`);
    return lines;
  }
  lines.unshift(
    `Active playbook: ${p.path}${p.branch ? ` on branch ${p.branch}` : ""}${p.reviewed ? ", reviewed" : ", NOT reviewed (the reviewer subagent runs `playbook review approve`)"}. Goal: ${p.goal}`,
  );
  const phase = p.phase
    ? `Phase ${p.phase.id} (${p.phase.name}): ${p.phase.checked}/${p.phase.total} subtasks checked; ${p.checked}/${p.total} in all.`
    : `${p.checked}/${p.total} subtasks checked.`;
  lines.push(phase);
  lines.push(`Next: ${p.next.text}`);
  if (p.open.length > 0)
    lines.push(
      `Open: ${p.open.map((s) => `${s.id} ${s.criterion}`).join("; ")}`,
    );
  if (input.gitBranch && input.gitBranch !== p.branch)
    lines.push(
      `Git is on ${input.gitBranch}, not the playbook's branch ${p.branch ?? "(none)"}.`,
    );
  return lines;
}

function snapshotLines(s: CompactSnapshot): string[] {
  const lines = [
    `Restored after compaction (saved ${s.at}${s.branch ? ` on branch ${s.branch}` : ""}).`,
  ];
  if (s.playbook)
    lines.push(
      `Before compaction: ${s.playbook.path}, phase ${s.playbook.phase ?? "-"}, ${s.playbook.checked}/${s.playbook.total} subtasks checked; next was: ${s.playbook.next}`,
    );
  if (s.changed.length > 0) lines.push(`Uncommitted: ${s.changed.join(", ")}`);
  if (s.commits.length > 0) lines.push(`Last commits: ${s.commits.join("; ")}`);
  if (s.errors.length > 0) lines.push(`Recent errors: ${s.errors.join(" | ")}`);
  return lines;
}

function shortStep(step: NextStep): string {
  switch (step.kind) {
    case "plan":
      return PLAN_STEP[step.missing];
    case "implement":
      return `${step.subtask} (do it, then playbook verify ${step.subtask})`;
    case "fix":
      return step.subtask
        ? `fix ${step.subtask}`
        : `fix what the critic found in ${step.phase}`;
    case "tick":
      return `tick ${step.subtask}`;
    case "delegate":
      return `${step.subtask} (delegate)`;
    case "user":
      return step.subtask
        ? `${step.subtask} (the user's turn)`
        : "the user's turn";
    case "critic":
      return `/crit ${step.phase}`;
    case "close-phase":
      return `mark ${step.phase} done`;
    case "start-phase":
      return `start ${step.phase}`;
    case "waiting":
      return `${step.phase} waits for its dependencies`;
    case "final-task":
      return `final task ${step.task}`;
    case "complete":
      return "archive";
  }
}

/** Keeps whole lines, most important first, while they fit; the first line that does not fit is cut to the rest. */
function fit(lines: readonly string[], maxBytes: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const size = bytes(line) + (kept.length > 0 ? 1 : 0);
    if (used + size <= maxBytes) {
      kept.push(line);
      used += size;
      continue;
    }
    const room = maxBytes - used - (kept.length > 0 ? 1 : 0);
    if (room > 40) kept.push(cutBytes(line, room));
    break;
  }
  return kept.join("\n");
}

function cut(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/** `text` shortened to at most `max` bytes of UTF-8, ending in an ellipsis, never splitting a character. */
function cutBytes(text: string, max: number): string {
  let out = "";
  let used = bytes("…");
  for (const char of text) {
    const size = bytes(char);
    if (used + size > max) break;
    out += char;
    used += size;
  }
  return `${out}…`;
}
