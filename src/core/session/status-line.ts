import type { PostLoopLock } from "../guards/types.ts";
import type { LoopState } from "./loop-state.ts";
import { PLAN_STEP } from "./next-step.ts";
import type { PlaybookProgress } from "./session-summary.ts";

export interface StatusLineView {
  branch: string | null;
  progress: PlaybookProgress | null;
  lock: PostLoopLock | null;
  /** A short label when state.md or the playbook needs fixing (`no state.md`, `lint errors`), else null. */
  problem: string | null;
  loop: LoopState | null;
}

const BAR = 8;

/**
 * The Claude Code status line: branch, playbook and phase with progress, the next step, the lock and a running loop,
 * in one line. Colour is ANSI (Claude Code renders it) unless turned off.
 */
export function renderStatusLine(view: StatusLineView, color: boolean): string {
  const paint = (code: string, text: string) =>
    color ? `\u001b[${code}m${text}\u001b[0m` : text;
  const parts: string[] = [];
  if (view.branch) parts.push(paint("36", view.branch));
  const p = view.progress;
  if (p) {
    const name = p.path
      .replace(/^.*\//, "")
      .replace(/^playbook-/, "")
      .replace(/\.md$/, "");
    const filled = p.total === 0 ? 0 : Math.round((p.checked / p.total) * BAR);
    const bar = `${"█".repeat(filled)}${"░".repeat(BAR - filled)}`;
    const phase = p.phase
      ? ` ${p.phase.id} ${p.phase.checked}/${p.phase.total}`
      : "";
    parts.push(
      `${paint(p.reviewed ? "32" : "33", name)}${phase} ${paint(p.reviewed ? "32" : "33", bar)} ${p.checked}/${p.total}${p.reviewed ? "" : paint("33", " not reviewed")}`,
    );
    parts.push(`next: ${nextLabel(p)}`);
  } else if (!view.lock) parts.push(paint("2", "no playbook"));
  if (view.lock)
    parts.push(paint("31", `post-loop lock (${view.lock.status}): /post-loop`));
  if (view.loop)
    parts.push(paint("35", `loop ${view.loop.iteration}/${view.loop.max}`));
  if (view.problem) parts.push(paint("31", view.problem));
  return parts.join(paint("2", " │ "));
}

function nextLabel(p: PlaybookProgress): string {
  const step = p.next;
  switch (step.kind) {
    case "plan":
      return PLAN_STEP[step.missing];
    case "implement":
    case "fix":
    case "tick":
    case "delegate":
      return `${step.kind} ${step.subtask ?? step.phase}`;
    case "user":
      return step.subtask ? `user: confirm ${step.subtask}` : "user";
    case "critic":
      return `/crit ${step.phase}`;
    case "close-phase":
      return `close ${step.phase}`;
    case "start-phase":
      return `start ${step.phase}`;
    case "waiting":
      return `${step.phase} waits`;
    case "final-task":
      return step.task;
    case "complete":
      return "archive";
  }
}
