import { runToolHook } from "../app/hook/events/tool-call.ts";
import { runHookMain } from "./hook-harness.ts";
import type { EarlyStart } from "./early-start.ts";

declare const module: unknown;
declare const require: { main: unknown };

/**
 * The tool bundle (`dist/hook-main.cjs`): PreToolUse, PostToolUse and PostToolUseFailure, the events
 * of every tool call. `dist/hook.cjs` loads it for those events; `playbook hook <Event>` loads it the same way.
 */
export function hookMain(
  argv: readonly string[],
  early?: EarlyStart,
): Promise<void> {
  return runHookMain(argv, runToolHook, early);
}

if (require.main === module) {
  hookMain(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(
      `playbook hook: internal error, nothing was checked: ${String(error)}\n`,
    );
  });
}
