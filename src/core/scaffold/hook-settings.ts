/**
 * The events playbook answers, and how long Claude Code may wait for each (seconds, never milliseconds). A tool call
 * runs only once PreToolUse answered: `onFailure: "block"` makes a hook that crashes, times out or prints nothing
 * usable block the call instead of letting it through (Claude Code 2.1.295 and later; it ignores the key on events
 * that cannot block).
 */
export const HOOK_EVENTS: readonly {
  event: string;
  timeout: number;
  onFailure?: "block";
}[] = [
  { event: "SessionStart", timeout: 10 },
  { event: "UserPromptSubmit", timeout: 10 },
  { event: "PreToolUse", timeout: 10, onFailure: "block" },
  // An edit that finishes the playbook starts the archive as a job and waits for it up to archive.hookWaitSeconds.
  { event: "PostToolUse", timeout: 180 },
  { event: "PostToolUseFailure", timeout: 10 },
  { event: "Stop", timeout: 10 },
  { event: "SubagentStop", timeout: 10 },
  { event: "PreCompact", timeout: 10 },
  { event: "SessionEnd", timeout: 5 },
];

/** One Claude Code hook handler in exec form: node runs the bundle directly, no shell, no npx. */
export interface HookHandler {
  type: "command";
  command: "node";
  args: [string, string];
  timeout: number;
  onFailure?: "block";
}

export function hookHandler(
  hookPath: string,
  event: string,
  timeout: number,
): HookHandler {
  const onFailure = HOOK_EVENTS.find((e) => e.event === event)?.onFailure;
  return {
    type: "command",
    command: "node",
    args: [hookPath, event],
    timeout,
    ...(onFailure ? { onFailure } : {}),
  };
}

/**
 * The events whose playbook handler in `settings` (parsed `.claude/settings.json`) lets a failed hook through: it
 * lacks the `onFailure` that `HOOK_EVENTS` gives it. Events with no playbook handler are not listed here.
 */
export function findFailOpenEvents(
  settings: unknown,
  knownPaths: readonly string[],
): string[] {
  const hooks = (settings as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== "object" || hooks === null) return [];
  const events: string[] = [];
  for (const { event, onFailure } of HOOK_EVENTS) {
    if (!onFailure) continue;
    const groups = (hooks as Record<string, unknown>)[event];
    if (!Array.isArray(groups)) continue;
    const handlers = groups.flatMap((g) =>
      Array.isArray((g as { hooks?: unknown } | null)?.hooks)
        ? (g as { hooks: unknown[] }).hooks
        : [],
    );
    if (
      handlers.some(
        (h) =>
          isPlaybookHandler(h, knownPaths) &&
          (h as { onFailure?: unknown }).onFailure !== onFailure,
      )
    )
      events.push(event);
  }
  return events;
}

/** The status line runs through a shell (it has no exec form), so the path is quoted. */
export function statusLineSetting(hookPath: string): {
  type: "command";
  command: string;
} {
  const shellPath = hookPath.replace(
    /^\$\{CLAUDE_PROJECT_DIR\}/,
    "$CLAUDE_PROJECT_DIR",
  );
  return { type: "command", command: `node "${shellPath}" statusline` };
}

/**
 * Whether a settings.json handler (or status line) is playbook's: it runs `dist/hook.cjs` of playbook-kit, or one
 * of `knownPaths` (the paths earlier inits wrote, from the manifest), in exec or shell form.
 */
export function isPlaybookHandler(
  handler: unknown,
  knownPaths: readonly string[],
): boolean {
  if (typeof handler !== "object" || handler === null) return false;
  const { command, args } = handler as { command?: unknown; args?: unknown };
  const words = [
    ...(typeof command === "string" ? [command] : []),
    ...(Array.isArray(args)
      ? args.filter((a): a is string => typeof a === "string")
      : []),
  ].join(" ");
  const normalised = words.replace(/\\/g, "/");
  if (
    /(?:^|[/"'\s])(?:playbook-kit\/dist\/hook|\.claude\/hooks\/playbook)\.cjs(?:["'\s]|$)/.test(
      normalised,
    )
  )
    return true;
  return knownPaths.some(
    (path) => path !== "" && normalised.includes(path.replace(/\\/g, "/")),
  );
}
