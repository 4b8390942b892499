/**
 * One deadline for a whole hook process and every program it starts (docs/trust-boundary.md, "Fail closed"). The hook
 * sets it when a PreToolUse call begins; every child process gets at most what is left of it as its timeout, so a
 * `git hash-object` over a sparse file the agent made cannot outlast the call. Processes without a deadline (jobs, the
 * CLI) keep each call's own timeout.
 */
let endUptimeMs: number | null = null;
let onSlow: (() => void) | null = null;

/** Sets the deadline `budgetMs` after this process started, and what to do before a step that may block. */
export function setProcessDeadline(
  budgetMs: number,
  beforeSlowStep: (() => void) | null = null,
): void {
  endUptimeMs = budgetMs;
  onSlow = beforeSlowStep;
}

/** The timeout for a child process: `wantedMs`, or what is left of the deadline when that is less (0 when none). */
export function childTimeoutMs(wantedMs: number): number {
  if (endUptimeMs === null) return wantedMs;
  const left = Math.floor(endUptimeMs - process.uptime() * 1000);
  return Math.max(0, Math.min(wantedMs, left));
}

/**
 * Called before work that cannot be interrupted from within (a cold parse of a large document): lets the hook arm
 * its watchdog, which answers for it if the work outlasts the deadline.
 */
export function beforeSlowStep(): void {
  onSlow?.();
}
