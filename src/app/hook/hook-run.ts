import type { Summarize } from "../../adapters/parse-cache.ts";
import type { Verdict } from "../../core/guards/evaluate.ts";
import type { HookEvent } from "../../core/guards/events.ts";
import type { CheckTime } from "../../core/time/deadline.ts";
import { parseHookPayload, type HookPayload } from "../../hooks/payload.ts";
import type { HookAnswer } from "../../hooks/reply.ts";
import type { CliSetup } from "../../core/scaffold/cli-spelling.ts";
import type { ReadBashCall } from "./read-bash-call.ts";
import type { SetStateField } from "../workspace/write-state-field.ts";

import type { TreeListing } from "../../adapters/tree-listing.ts";
import type { UncommittedFiles } from "../../adapters/uncommitted-files.ts";
import type {
  BashSnapshotAnswer,
  BashSnapshotRequest,
} from "../snapshot/snapshot-before-bash.ts";

import type { ApplyLocalBoundary } from "../workspace/sync-local-boundary.ts";

export interface HookDeps {
  summarize: Summarize;
  /** The shell analysis, from its own bundle (loaded on the first Bash call), checking the deadline throughout. */
  readBashCall: ReadBashCall;
  /** The general state.md writer, from the parser bundle: loaded only when a session stamp cannot be spliced in. */
  setStateField: () => SetStateField;
  /** Runs the archive workflow (its bundle is loaded on the first call). */
  archive: (
    projectDir: string,
    session: string | null,
  ) => Promise<HookArchiveResult>;
  now: () => Date;
  clock: () => number;
  /** Throws `OutOfTime` once the time for this call is up (PreToolUse); a no-op for other events. */
  checkTime: CheckTime;
  /** The folder of the running hook bundle (dist/), where `job.cjs` and `cli.mjs` sit. */
  distDir: string;
  /** How this project runs playbook (`setupOfDist`), which spells the commands replies name. */
  cliSetup?: CliSetup;
  /** git listing the tree's changes, started by the hook's loader for a call that may claim proof. */
  treeListing?: TreeListing | null;
  /** Keeps a copy of the uncommitted work before a shell command that may change files (app/snapshot). */
  snapshotBeforeBash?: (
    request: BashSnapshotRequest,
  ) => Promise<BashSnapshotAnswer>;
  /** Starts git's listing of the work for that snapshot, before the shell command is read. */
  startWorkListing?: (root: string) => Promise<UncommittedFiles>;
  /** Writes the sandbox's derived lists into settings.local.json (its bundle loads only when they change). */
  applyLocalBoundary?: ApplyLocalBoundary;
}

/** What the archive the hook started came to, in words: one line for the user, and each step for the agent. */
export interface HookArchiveResult {
  /** What happened and the next step. */
  headline: string;
  /** Each step and how it ended (`✓ push: …; ✗ merge: …`); null when the archive did not start. */
  steps: string | null;
}

export interface HookRun {
  answer: HookAnswer;
  /** The project the call was judged in, for the logs; null when the payload was unusable. */
  projectDir: string | null;
  verdict: Verdict | null;
  tool: string | null;
}

/** A payload that fits its event, or the answer for one that does not (Claude Code wrote it, not the agent). */
export function preparePayload(
  event: HookEvent,
  json: unknown,
): { ok: true; payload: HookPayload } | { ok: false; run: HookRun } {
  const parsed = parseHookPayload(event, json);
  if (!parsed.ok)
    return {
      ok: false,
      run: {
        answer: notice(
          `playbook hook: ${parsed.problem}; nothing was checked. Update playbook, or report it if Claude Code changed the event format.`,
        ),
        projectDir: null,
        verdict: null,
        tool: null,
      },
    };
  return { ok: true, payload: parsed.payload };
}

function notice(text: string): HookAnswer {
  return { block: null, context: [], notice: text };
}
