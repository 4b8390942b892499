import { setProcessDeadline } from "../adapters/process-deadline.ts";
import { checkBudget } from "./deadline.ts";
import { HOOK_PROCESS_ENV } from "../adapters/git-runner.ts";
import { dropAgentWritablePath } from "../adapters/trusted-path-env.ts";
import type { TreeListing } from "../adapters/tree-listing.ts";
import { mayClaimProof } from "../core/edit/may-claim-proof.ts";
import {
  MAX_STDIN_BYTES,
  readEvent,
  STDIN_TIMEOUT_MS,
  type StdinRead,
} from "./read-stdin.ts";

/** What the loader did for a tool call before the tool bundle loaded. */
export interface EarlyStart {
  input: StdinRead;
  /** The event, parsed; absent when stdin did not hold JSON (the bundle says so). */
  json?: unknown;
  /** git listing the working tree's changes, for a call that may claim proof. */
  listing: TreeListing | null;
}

/**
 * A hook process runs outside the sandbox: it marks itself for the git it starts (git that runs nothing, see
 * git-runner.ts) and drops the `PATH` entries the agent could plant a program in, before it starts any program.
 */
export function becomeHookProcess(): void {
  process.env[HOOK_PROCESS_ENV] = "1";
  dropAgentWritablePath(process.env["CLAUDE_PROJECT_DIR"] || process.cwd());
}

/**
 * The project a hook call is about: Claude Code's `CLAUDE_PROJECT_DIR` (an empty one is none), else the folder the
 * hook was started in. Never the event's `cwd`: that is wherever the agent's shell went, a copy of the project with
 * its own git configuration and settings, say (docs/trust-boundary.md).
 */
export function hookProjectDir(): string {
  return process.env["CLAUDE_PROJECT_DIR"] || process.cwd();
}

/**
 * The start of a PreToolUse call, run by `dist/hook.cjs` before it loads the tool bundle: reads the event and, when
 * the call may tick a box, starts git on the tree's changes (`startListing`, loaded only then: the runner and the
 * listing stay out of the loader). In a 10,000-file repository git's walk is most of a tick, and starting it here
 * lets the bundle load and the records be read while it runs.
 */
export async function startToolCall(
  startListing: (root: string) => TreeListing | null,
): Promise<EarlyStart> {
  becomeHookProcess();
  // Set before the first program starts: git's listing gets no more than the call's time.
  setProcessDeadline(checkBudget(process.env["PLAYBOOK_CHECK_BUDGET_MS"]));
  const input = await readEvent(MAX_STDIN_BYTES, STDIN_TIMEOUT_MS);
  if (input.timedOut || input.truncated) return { input, listing: null };
  let json: unknown;
  try {
    json = JSON.parse(input.text);
  } catch {
    return { input, listing: null };
  }
  const call = (json ?? {}) as { tool_name?: unknown; tool_input?: unknown };
  const toolInput = call.tool_input;
  const claims =
    typeof toolInput === "object" &&
    toolInput !== null &&
    mayClaimProof(
      typeof call.tool_name === "string" ? call.tool_name : null,
      toolInput as Record<string, unknown>,
    );
  return {
    input,
    json,
    listing: claims ? startListing(hookProjectDir()) : null,
  };
}
