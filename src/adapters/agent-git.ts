import { join } from "node:path";

/** Set in every hook process, and so in the jobs it starts: git runs there on the agent's behalf. */
export const HOOK_PROCESS_ENV = "PLAYBOOK_HOOK_PROCESS";

/**
 * git's `-c` settings for a process playbook runs on the agent's behalf (the hook, the jobs it starts). Such a process
 * runs outside the agent's sandbox, and git hooks run whatever their folder holds: husky's `.husky/`, a
 * `core.hooksPath` inside the project, or a hook that calls a tool configured in the working tree, all of which the
 * agent can write. So the hooks folder is one inside the runtime folder that never exists and that the agent cannot
 * create, and no fsmonitor program runs. A person's own terminal keeps git's hooks.
 */
export function agentGitConfig(
  projectDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  return env[HOOK_PROCESS_ENV] === "1"
    ? [
        "-c",
        `core.hooksPath=${join(projectDir, ".claude", "playbook", "no-git-hooks")}`,
        "-c",
        "core.fsmonitor=false",
      ]
    : [];
}
