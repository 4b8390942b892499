import { delimiter, isAbsolute } from "node:path";
import {
  agentWritablePathEntries,
  withoutAgentWritable,
} from "../core/paths/agent-writable-path.ts";

/** The temp folders the agent's sandbox may write, as this process names them. */
function agentTempDirs(
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const dirs = ["/tmp", "/var/tmp", env["TMPDIR"], env["TEMP"], env["TMP"]];
  return [...new Set(dirs.filter((d): d is string => !!d))];
}

/** The entries of `PATH` the agent could plant a program in (see `agentWritablePathEntries`). */
export function agentWritablePath(
  env: Readonly<Record<string, string | undefined>>,
  projectDir: string,
): string[] {
  return agentWritablePathEntries(env["PATH"] ?? "", {
    projectDir,
    tempDirs: agentTempDirs(env),
    delimiter,
    isAbsolute,
  });
}

/**
 * Takes those entries out of this process's `PATH`, so the git, bubblewrap and node a hook process (outside the
 * sandbox) starts are never programs the agent planted.
 */
export function dropAgentWritablePath(projectDir: string): void {
  const dropped = agentWritablePath(process.env, projectDir);
  if (dropped.length === 0) return;
  process.env[AGENT_PATH_ENV] = process.env["PATH"] ?? "";
  process.env["PATH"] = withoutAgentWritable(
    process.env["PATH"] ?? "",
    dropped,
    delimiter,
  );
}

/** The `PATH` before `dropAgentWritablePath`, kept for commands that run inside the sandbox. */
const AGENT_PATH_ENV = "PLAYBOOK_AGENT_PATH";

/**
 * A validation command with the `PATH` the agent's shell has (a project's `node_modules/.bin` on it, say): it runs
 * inside the sandbox, where a planted program can do no more than the command itself. The sandbox program itself is
 * still found on the cleaned `PATH`.
 */
export function withAgentPath(
  command: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const path = env[AGENT_PATH_ENV];
  return path === undefined
    ? command
    : `PATH='${path.replaceAll("'", `'\\''`)}'; export PATH; ${command}`;
}
