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
  const result = spawnSync(
    process.execPath,
    [options.bundle ?? HOOK_BUNDLE, event],
    {
      cwd: options.cwd ?? tmpdir(),
      env: childEnv(options.env),
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
