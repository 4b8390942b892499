import { runSessionHook } from "../app/hook/events/session.ts";
import { runHookMain } from "./hook-harness.ts";
import { statusLineMain } from "./status-line.ts";

/**
 * The session bundle (`dist/hook-session.cjs`): SessionStart, UserPromptSubmit, Stop, SubagentStop, PreCompact,
 * SessionEnd and
 * the status line. Kept apart so the intent patterns and the lifecycle code never load on a tool call.
 */
export function hookMain(argv: readonly string[]): Promise<void> {
  if (argv[0] === "statusline")
    return statusLineMain(argv[1] === "--cwd" ? argv[2] : undefined);
  return runHookMain(argv, runSessionHook);
}
