/** The events playbook answers, and how long Claude Code may wait for each (seconds, never milliseconds). */
export const HOOK_EVENTS: readonly { event: string; timeout: number }[] = [
  { event: "SessionStart", timeout: 10 },
  { event: "UserPromptSubmit", timeout: 10 },
  { event: "PreToolUse", timeout: 10 },
  // An edit that finishes the playbook runs the archive (push, pull request, up to 60 s of checks, merge).
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
}

export function hookHandler(
  hookPath: string,
  event: string,
  timeout: number,
): HookHandler {
  return { type: "command", command: "node", args: [hookPath, event], timeout };
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
