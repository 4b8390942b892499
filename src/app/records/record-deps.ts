import type { Grant, GrantKind } from "../../adapters/grant-store.ts";
import { PlaybookError } from "../../core/errors.ts";

/** What the record commands need from the world, injectable for tests. */
export interface RecordDeps {
  now: () => Date;
  /** Whether a person runs the command: stdin and stdout are terminals and no agent's shell runs it. */
  isPersonAtTerminal: () => boolean;
  /** Takes the one-time grant the hook wrote for this command, or null. */
  takeGrant: (kind: GrantKind) => Grant | null;
}

/**
 * Both ends are terminals, and Claude Code's shell (which sets `CLAUDECODE=1`) is not the caller: an agent that
 * fakes a terminal must also hide that variable, which makes the forgery a deliberate, visible act.
 */
export function isPersonAtTerminal(io: {
  stdin: boolean;
  stdout: boolean;
  env: NodeJS.ProcessEnv;
}): boolean {
  return io.stdin && io.stdout && io.env["CLAUDECODE"] !== "1";
}

/**
 * Who makes a review or critic record: `user` for a person at a terminal, else the subagent whose call the hook
 * granted (the grant is used up).
 *
 * @throws PlaybookError E_DENIED when neither is the case.
 */
export function identifyRecorder(
  kind: GrantKind,
  deps: RecordDeps,
): { by: string; grant: Grant | null } {
  if (deps.isPersonAtTerminal()) return { by: "user", grant: null };
  const grant = deps.takeGrant(kind);
  if (grant) return { by: grant.agentType || kind, grant };
  throw kind === "review"
    ? new PlaybookError(
        "E_DENIED",
        "`playbook review` records the reviewer's verdict: run it from the reviewer subagent or yourself in a terminal.",
        {
          hint: "Nothing was recorded. Ask the reviewer subagent to review the playbook; it runs `playbook review approve|reject`.",
        },
      )
    : new PlaybookError(
        "E_DENIED",
        "`playbook crit record` records the critic's verdict: run it from the critic subagent or yourself in a terminal.",
        {
          hint: "Nothing was recorded. Run /crit so the critic subagent verifies the phase and records its verdict.",
        },
      );
}
