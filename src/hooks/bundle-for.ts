/** Events the session bundle answers; every other event (the tool calls) goes to the tool bundle. */
const SESSION_EVENTS: ReadonlySet<string> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
  "statusline",
]);

/** The bundle (without `.cjs`) that answers `event`: `hook-session` or `hook-main`. */
export function bundleFor(
  event: string | undefined,
): "hook-session" | "hook-main" {
  return event !== undefined && SESSION_EVENTS.has(event)
    ? "hook-session"
    : "hook-main";
}
