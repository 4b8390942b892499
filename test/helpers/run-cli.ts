import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { spawnText } from "../../harness/spawn-text.ts";

export const CLI_BUNDLE = fileURLToPath(
  new URL("../../dist/cli.mjs", import.meta.url),
);

export interface SpawnResult {
  stdout: string;
  stderr: string;
  status: number | null;
}

export interface SpawnOptions {
  cwd?: string;
  /** Overrides on top of the controlled environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
}

/**
 * Variables that change what the bundles print or where they look, removed from the child's environment unless a
 * test sets them: colour switches (picocolors also turns colour on when `CI` is set), the hook's kill switch and
 * project directory, and GitHub Actions' own (a test run in Actions must not write to its job summary).
 */
const CONTROLLED = [
  "FORCE_COLOR",
  "NO_COLOR",
  "CI",
  "PLAYBOOK_DISABLE",
  "CLAUDE_PROJECT_DIR",
  "GITHUB_ACTIONS",
  "GITHUB_STEP_SUMMARY",
];

/** The environment for a spawned bundle: this process's, minus the controlled variables, plus `overrides`. */
export function childEnv(
  overrides: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONTROLLED) delete env[name];
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Runs `node dist/cli.mjs ...args` to completion (the global setup builds dist/ before any test). */
export function runCli(
  args: readonly string[],
  options: SpawnOptions = {},
): SpawnResult {
  const result = spawnSync(process.execPath, [CLI_BUNDLE, ...args], {
    cwd: options.cwd,
    env: childEnv(options.env),
    encoding: "utf8",
    timeout: 20_000,
  });
  if (result.error) throw result.error;
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    status: result.status,
  };
}

/**
 * Runs the CLI without blocking this process, for tests whose GitHub server runs in it (a synchronous spawn would
 * stop the server from answering).
 */
export function runCliAsync(
  args: readonly string[],
  options: SpawnOptions = {},
): Promise<SpawnResult> {
  return spawnText(process.execPath, [CLI_BUNDLE, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: childEnv(options.env),
    input: "",
    timeoutMs: 60_000,
  });
}
