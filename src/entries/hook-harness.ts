import { isHookEvent, type HookEvent } from "../core/guards/events.ts";
import { readConfig } from "../app/workspace/read-config.ts";
import type { HookDeps, HookRun } from "../app/hook/hook-run.ts";
import { logHookRun } from "../app/hook/log-hook-run.ts";
import {
  readBashCallLazily,
  snapshotLazily,
  applyLocalBoundaryLazily,
  loadArchive,
  loadParser,
  parsedDocuments,
  summarizeLazily,
} from "./lazy-bundles.ts";
import { MAX_STDIN_BYTES, readEvent, STDIN_TIMEOUT_MS } from "./read-stdin.ts";
import {
  becomeHookProcess,
  hookProjectDir,
  type EarlyStart,
} from "./early-start.ts";
import { toHookReply, type HookAnswer } from "../hooks/reply.ts";
import { resolveRealPath } from "../adapters/resolve-real-path.ts";
import {
  setupOfDist,
  spellCommands,
  type CliSetup,
} from "../core/scaffold/cli-spelling.ts";
import { checkBudget, startDeadline, timeLeftOf } from "./deadline.ts";
import { failedPreToolUse } from "../hooks/failed-reply.ts";
import { isOutOfTime, NO_DEADLINE } from "../core/time/deadline.ts";
import { KILL_SWITCH } from "../core/guards/facts.ts";
import { setProcessDeadline } from "../adapters/process-deadline.ts";
import { armWatchdog, writeReply } from "./watchdog.ts";

/** The watchdog answers this long after the budget: Claude Code waits 10 s, and the reply must reach it first. */
const WATCHDOG_AFTER_BUDGET_MS = 2000;

declare const __dirname: string;

/** Whether this process has written its one reply: a failure after it must not write a second. */
let replied = false;

/** How this project runs playbook, once the project is known: every command a reply names is spelled so. */
let spelling: CliSetup | null = null;

function reply(event: HookEvent, answer: HookAnswer): void {
  const spell = (text: string) =>
    spelling === null ? text : spellCommands(text, spelling);
  const text = toHookReply(event, {
    ...answer,
    block: answer.block === null ? null : spell(answer.block),
    context: answer.context.map(spell),
    notice: answer.notice === null ? null : spell(answer.notice),
  }).stdout;
  replied = true;
  // Synchronous, so the reply is out even when the process must then end with a signal.
  writeReply(text);
}

/** What answers one event: the tool bundle's guards, or the session bundle's lifecycle. */
export type HookRunner = (
  event: HookEvent,
  json: unknown,
  projectDir: string,
  deps: HookDeps,
) => HookRun | Promise<HookRun>;

/**
 * The shared harness of both hook bundles (`node dist/hook.cjs <Event>`, `playbook hook <Event>`): the event JSON on
 * stdin, exactly one reply on stdout. A PreToolUse call it cannot answer, for whatever reason, is refused.
 */
export async function runHookMain(
  argv: readonly string[],
  runner: HookRunner,
  early?: EarlyStart,
): Promise<void> {
  if (process.env["PLAYBOOK_DISABLE"] === "1") return;
  // The loader's early start has done it already for a PreToolUse call.
  if (!early) becomeHookProcess();
  try {
    await answerEvent(argv, runner, early);
  } catch (error) {
    if (replied) return;
    if (argv[0] === "PreToolUse")
      writeReply(failedPreToolUse(error, spelling?.cli));
    else throw error;
  } finally {
    // A listing the call turned out not to need: git stops rather than run on after the reply.
    early?.listing?.cancel();
  }
}

async function answerEvent(
  argv: readonly string[],
  runner: HookRunner,
  early: EarlyStart | undefined,
): Promise<void> {
  const name = argv[0];
  if (!name || !isHookEvent(name)) {
    process.stderr.write(
      `playbook hook: ${name ? `unknown event \`${name}\`` : "the event name argument is missing"} (the hook command in .claude/settings.json passes it, e.g. \`node dist/hook.cjs PreToolUse\`); nothing was checked.\n`,
    );
    return;
  }
  const event = name;
  const started = clock();
  const input =
    early?.input ?? (await readEvent(MAX_STDIN_BYTES, STDIN_TIMEOUT_MS));
  if (input.timedOut || input.truncated) {
    const why = input.timedOut
      ? `no complete event on stdin within ${STDIN_TIMEOUT_MS / 1000} s`
      : `the event on stdin is larger than ${MAX_STDIN_BYTES / 1024 / 1024} MiB`;
    // A call too large to read cannot be judged: refuse it rather than let it through unchecked.
    reply(
      event,
      event === "PreToolUse" && input.truncated
        ? {
            block: `Blocked: ${why}, so playbook cannot check it. Next: split the change into smaller calls. Kill switch: the user can start Claude Code with PLAYBOOK_DISABLE=1 to turn every playbook guard off.`,
            context: [],
            notice: null,
          }
        : {
            block: null,
            context: [],
            notice: `playbook hook: ${why}; nothing was checked.`,
          },
    );
    // A read may still be pending on the open pipe: end the process rather than wait for it. The reply is already
    // written, and Claude Code reads valid JSON on stdout whatever the exit status.
    if (input.readPending) process.kill(process.pid, "SIGKILL");
    process.exit(0);
  }
  let json: unknown = early?.json;
  try {
    if (json === undefined) json = JSON.parse(input.text);
  } catch {
    reply(event, {
      block: null,
      context: [],
      notice: `playbook hook: the ${event} event on stdin is ${input.text.trim() === "" ? "empty" : "not JSON"}; nothing was checked.`,
    });
    return;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    reply(event, {
      block: null,
      context: [],
      notice: `playbook hook: the ${event} event on stdin is not a JSON object; nothing was checked.`,
    });
    return;
  }
  // Worked out once for the call: Claude Code's CLAUDE_PROJECT_DIR (never the event's cwd).
  const projectDir = hookProjectDir();
  const plugin = process.env["CLAUDE_PLUGIN_ROOT"];
  spelling = setupOfDist(
    resolveRealPath(projectDir, "."),
    resolveRealPath(__dirname, "."),
    plugin === undefined || plugin === ""
      ? undefined
      : resolveRealPath(plugin, "."),
  );
  const budget = checkBudget(process.env["PLAYBOOK_CHECK_BUDGET_MS"]);
  const checkTime =
    event === "PreToolUse" ? startDeadline(budget, clock) : NO_DEADLINE;
  if (event === "PreToolUse")
    setProcessDeadline(budget, () =>
      armWatchdog(
        watchdogAt(budget),
        toHookReply(event, {
          block: `Blocked: playbook could not finish checking this call within ${watchdogAt(budget) / 1000} s, and refuses it rather than let it through unchecked: a document it had to read (${[...new Set(parsedDocuments())].map((d) => `\`${d}\``).join(", ") || "state.md or the playbook"}) took the time. Next: make the same call again (what was read is kept); if it is refused again, run \`playbook doctor\` and shrink the document it names. ${KILL_SWITCH}`,
          context: [],
          notice: null,
        }).stdout,
      ),
    );
  let run;
  try {
    run = await runner(event, json, projectDir, {
      summarize: summarizeLazily(projectDir),
      readBashCall: readBashCallLazily(checkTime),
      checkTime,
      setStateField: () => loadParser().setStateField,
      archive: (dir, session) =>
        loadArchive().archiveFromHook(dir, session, __dirname),
      now: () => new Date(),
      clock,
      distDir: __dirname,
      cliSetup: spelling,
      treeListing: early?.listing ?? null,
      ...snapshotDeps(snapshotLazily(timeLeftOf(budget, clock))),
      applyLocalBoundary: applyLocalBoundaryLazily,
    });
  } catch (error) {
    if (event === "PreToolUse" && isOutOfTime(error)) {
      const documents = [...new Set(parsedDocuments())];
      reply(event, {
        block:
          documents.length > 0
            ? `Blocked: playbook could not check this call within ${error.budgetMs / 1000} s, and refuses it rather than let it through unchecked: reading ${documents.map((d) => `\`${d}\``).join(" and ")} took the time (it changed since the last call, and a playbook this large takes seconds to read). What was read is kept now. Next: make the same call again. ${KILL_SWITCH}`
            : (json as { tool_name?: unknown }).tool_name === "Bash"
              ? `Blocked: playbook could not check this call within ${error.budgetMs / 1000} s, and refuses it rather than let it through unchecked. Next: split the command into smaller calls, or simplify it (fewer commands, globs and nested \`$(...)\` or \`bash -c\`). ${KILL_SWITCH}`
              : `Blocked: playbook could not check this call within ${error.budgetMs / 1000} s, and refuses it rather than let it through unchecked: reading the working tree's changed files took the time. Next: make the same call again; if it is refused again, look for a very large file among the changes (\`git status\`) and remove it or add it to .gitignore. ${KILL_SWITCH}`,
        context: [],
        notice: null,
      });
      return;
    }
    // A call that was not checked must not run.
    if (event === "PreToolUse") throw error;
    // Our own failure must never brick the session, and never pass silently either: the user sees it.
    reply(event, {
      block: null,
      context: [],
      notice: `playbook hook failed (${error instanceof Error ? error.message : String(error)}); this ${event} call was not checked. Reinstall playbook or report the error; PLAYBOOK_DISABLE=1 turns the hook off.`,
    });
    return;
  }
  reply(event, run.answer);
  if (run.projectDir && readConfig(run.projectDir).config.logging.enabled)
    logHookRun(run, event, clock() - started, new Date());
}

/**
 * When the watchdog answers, from the start of the process: a while after the budget, well before Claude Code's 10 s.
 * `PLAYBOOK_WATCHDOG_MS` moves it earlier (for tests: a parse then outlasts it), never later.
 */
function watchdogAt(budgetMs: number): number {
  const wanted = Number(process.env["PLAYBOOK_WATCHDOG_MS"]);
  const at = budgetMs + WATCHDOG_AFTER_BUDGET_MS;
  return Number.isFinite(wanted) && wanted > 0 ? Math.min(wanted, at) : at;
}

/**
 * Milliseconds from a monotonic clock. `process.hrtime` rather than `performance.now()`: the `performance` global
 * loads `node:perf_hooks` on first use, about 0.8 ms on every tool call.
 */
function clock(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

function snapshotDeps(
  lazy: ReturnType<typeof snapshotLazily>,
): Pick<HookDeps, "snapshotBeforeBash" | "startWorkListing"> {
  return { snapshotBeforeBash: lazy.snapshot, startWorkListing: lazy.start };
}
