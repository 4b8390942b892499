import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { childEnv, type SpawnOptions, type SpawnResult } from "./run-cli.ts";

export const HOOK_BUNDLE = fileURLToPath(
  new URL("../../dist/hook.cjs", import.meta.url),
);

export interface RunHookOptions extends SpawnOptions {
  /** The bundle to run; defaults to `dist/hook.cjs`. */
  bundle?: string;
}

/**
 * Runs `node dist/hook.cjs <event>` with `payload` on stdin: objects are sent as JSON, strings as they are. The
 * child runs in the temp directory so a payload without `cwd` never touches this repository.
 */
export function runHook(
  event: string,
  payload: unknown,
  options: RunHookOptions = {},
): SpawnResult {
  const input = typeof payload === "string" ? payload : JSON.stringify(payload);
  // Claude Code starts every hook with CLAUDE_PROJECT_DIR set to the project the session began in; the hook never
  // takes the project from the event's cwd. A test that leaves it out gets the event's cwd, as a session there would.
  const cwd = (payload as { cwd?: unknown } | null)?.cwd;
  const env =
    options.env && "CLAUDE_PROJECT_DIR" in options.env
      ? options.env
      : {
          ...options.env,
          ...(typeof cwd === "string" ? { CLAUDE_PROJECT_DIR: cwd } : {}),
        };
  const result = spawnSync(
    process.execPath,
    [options.bundle ?? HOOK_BUNDLE, event],
    {
      cwd: options.cwd ?? tmpdir(),
      env: childEnv(env),
      input,
      encoding: "utf8",
      timeout: 20_000,
    },
  );
  if (result.error) throw result.error;
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    status: result.status,
  };
}
