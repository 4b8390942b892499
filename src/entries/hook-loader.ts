import { writeSync } from "node:fs";
import { join } from "node:path";
import { bundleFor } from "../hooks/bundle-for.ts";
import { failedPreToolUse } from "../hooks/failed-reply.ts";
import { setupOfDist } from "../core/scaffold/cli-spelling.ts";
import { requireWithCodeCache } from "./code-cache.ts";
import { startToolCall, type EarlyStart } from "./early-start.ts";
import type { startTreeListing } from "../adapters/tree-listing.ts";

declare const __dirname: string;

/**
 * `dist/hook.cjs`: loads the bundle for the event (`hook-main.cjs` for tool calls, `hook-session.cjs` for session
 * events and the status line) through V8's code cache (code-cache.ts).
 */
function loadMain(bundle: string): {
  hookMain: (argv: readonly string[], early?: EarlyStart) => Promise<void>;
} {
  return requireWithCodeCache(join(__dirname, `${bundle}.cjs`)) as ReturnType<
    typeof loadMain
  >;
}

declare const require: NodeJS.Require;

/**
 * Starts git's listing of the tree's changes, from `dist/git.cjs`: only a call that may tick a box loads it. A plain
 * `require`, so the tool bundle's git (the same file, scripts/build.mjs) is the module loaded here.
 */
function startListing(root: string) {
  const git = require(join(__dirname, "git.cjs")) as {
    startTreeListing: typeof startTreeListing;
  };
  return git.startTreeListing(root);
}

/** A PreToolUse call the hook could not answer is refused: Claude Code would run it unchecked. */
function failed(error: unknown): void {
  if (process.argv[2] === "PreToolUse")
    writeSync(
      1,
      failedPreToolUse(
        error,
        setupOfDist(
          process.env["CLAUDE_PROJECT_DIR"] ?? process.cwd(),
          __dirname,
        ).cli,
      ),
    );
  else
    process.stderr.write(
      `playbook hook: internal error, nothing was checked: ${String(error)}\n`,
    );
}

// The kill switch is checked before anything loads, so a disabled hook costs no more than node itself. A PreToolUse
// call is read here, before the tool bundle loads, so a tick's git starts first (early-start.ts).
if (process.env["PLAYBOOK_DISABLE"] !== "1")
  (process.argv[2] === "PreToolUse"
    ? startToolCall(startListing)
    : Promise.resolve()
  )
    .then((early) =>
      loadMain(bundleFor(process.argv[2])).hookMain(
        process.argv.slice(2),
        early ?? undefined,
      ),
    )
    // The reply is written and flushed (writeSync) by now, and jobs the hook started are detached: ending here
    // saves Node's teardown of what is left (2-3 ms of every call, measured side by side).
    .then(() => process.exit(), failed);
