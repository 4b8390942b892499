import { readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { bundleFor } from "../hooks/bundle-for.ts";
import { failedPreToolUse } from "../hooks/failed-reply.ts";
import { startToolCall, type EarlyStart } from "./early-start.ts";

declare const __dirname: string;
declare const require: NodeJS.Require;

/**
 * `dist/hook.cjs`: loads the bundle for the event (`hook-main.cjs` for tool calls, `hook-session.cjs` for session
 * events and the status line) through V8's code cache, kept beside it (`.hook-main.v8cache`), which saves the hook
 * 2-3 ms of compiling on every call. Node 20 has no built-in compile cache for CommonJS. A cache from
 * another Node version or a changed bundle is rejected by V8 and rewritten; an unwritable folder only costs the time.
 */
function loadMain(bundle: string): {
  hookMain: (argv: readonly string[], early?: EarlyStart) => Promise<void>;
} {
  const file = join(__dirname, `${bundle}.cjs`);
  const cacheFile = join(__dirname, `.${bundle}.v8cache`);
  const source = readFileSync(file, "utf8");
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    require,
    module,
    file,
    dirname(file),
  );
  if (!cachedData || script.cachedDataRejected === true)
    // After the run, so the functions the hook compiled lazily are in the cache too.
    process.once("exit", () => {
      try {
        const temp = `${cacheFile}.${process.pid}`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // A read-only install still works, only without the cache.
      }
    });
  return module.exports as ReturnType<typeof loadMain>;
}

/** A PreToolUse call the hook could not answer is refused: Claude Code would run it unchecked. */
function failed(error: unknown): void {
  if (process.argv[2] === "PreToolUse") writeSync(1, failedPreToolUse(error));
  else
    process.stderr.write(
      `playbook hook: internal error, nothing was checked: ${String(error)}\n`,
    );
}

// The kill switch is checked before anything loads, so a disabled hook costs no more than node itself. A PreToolUse
// call is read here, before the tool bundle loads, so a tick's git starts first (early-start.ts).
if (process.env["PLAYBOOK_DISABLE"] !== "1")
  (process.argv[2] === "PreToolUse" ? startToolCall() : Promise.resolve())
    .then((early) =>
      loadMain(bundleFor(process.argv[2])).hookMain(
        process.argv.slice(2),
        early ?? undefined,
      ),
    )
    // The reply is written and flushed (writeSync) by now, and jobs the hook started are detached: ending here
    // saves Node's teardown of what is left (2-3 ms of every call, measured side by side).
    .then(() => process.exit(), failed);
