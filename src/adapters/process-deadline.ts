/**
 * One deadline for a whole hook process and every program it starts (docs/trust-boundary.md, "Fail closed"). The hook
 * sets it when a PreToolUse call begins; every child process gets at most what is left of it as its timeout, so a
 * git over a sparse file the agent made cannot outlast the call. Processes without a deadline (jobs, the CLI) keep
 * each call's own timeout.
 *
 * The hook's code is split into bundles (the loader, the tool bundle, git's), each with its own copy of this module;
 * the state lives on the process, under a registered symbol, so they share one deadline.
 */
interface DeadlineState {
  endUptimeMs: number | null;
  onSlow: (() => void) | null;
}

const KEY = Symbol.for("playbook-kit.process-deadline");

function state(): DeadlineState {
  const holder = globalThis as unknown as Record<symbol, DeadlineState>;
  return (holder[KEY] ??= { endUptimeMs: null, onSlow: null });
}

/** Sets the deadline `budgetMs` after this process started, and what to do before a step that may block. */
export function setProcessDeadline(
  budgetMs: number,
  beforeSlowStep: (() => void) | null = null,
): void {
  const s = state();
  s.endUptimeMs = budgetMs;
  s.onSlow = beforeSlowStep;
}

/** The timeout for a child process: `wantedMs`, or what is left of the deadline when that is less (0 when none). */
export function childTimeoutMs(wantedMs: number): number {
  const end = state().endUptimeMs;
  if (end === null) return Math.max(1, Math.floor(wantedMs));
  const left = Math.floor(end - process.uptime() * 1000);
  return Math.max(0, Math.floor(Math.min(wantedMs, left)));
}

/**
 * Called before work that cannot be interrupted from within (a cold parse of a large document): lets the hook arm
 * its watchdog, which answers for it if the work outlasts the deadline.
 */
export function beforeSlowStep(): void {
  state().onSlow?.();
}

/** Whether this process's deadline has passed (never, without one): a long loop of its own stops there. */
export function isPastDeadline(): boolean {
  const end = state().endUptimeMs;
  return end !== null && process.uptime() * 1000 > end;
}
