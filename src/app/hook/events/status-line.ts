import { readLoop } from "../../../adapters/loop-store.ts";
import type { Summarize } from "../../../adapters/parse-cache.ts";
import { playbookProgress } from "../../../core/session/playbook-progress.ts";
import { renderStatusLine } from "../../../core/session/status-line.ts";
import { buildGuardContext } from "../build-guard-context.ts";

/**
 * `playbook statusline`: reads Claude Code's status line JSON (its `workspace.project_dir`, `cwd` and
 * `session_id`) and prints one line from the parse cache, as fast as a hook.
 */
export function runStatusLine(
  json: unknown,
  envProjectDir: string | undefined,
  deps: {
    /** The summarizer for the project the status line is about (its lint options apply). */
    summarizeFor: (projectDir: string) => Summarize;
    color: boolean;
  },
): string {
  const input =
    typeof json === "object" && json !== null
      ? (json as Record<string, unknown>)
      : {};
  const workspace =
    typeof input["workspace"] === "object" && input["workspace"] !== null
      ? (input["workspace"] as Record<string, unknown>)
      : {};
  const text = (value: unknown) =>
    typeof value === "string" && value !== "" ? value : undefined;
  const projectDir =
    envProjectDir ??
    text(workspace["project_dir"]) ??
    text(input["cwd"]) ??
    process.cwd();
  const sessionId = text(input["session_id"]);
  // A read-only view of the workspace: no tool call, so the guards' event is only a label here.
  const ctx = buildGuardContext({
    event: "UserPromptSubmit",
    payload: {
      cwd: projectDir,
      ...(sessionId ? { session_id: sessionId } : {}),
    },
    projectDir,
    summarize: deps.summarizeFor(projectDir),
  });
  const { loop } = readLoop(ctx.projectDir);
  return renderStatusLine(
    {
      branch: ctx.git.branch,
      progress: playbookProgress(ctx),
      lock: ctx.lock,
      problem:
        ctx.stateProblem === "state.md is missing."
          ? "no state.md"
          : ctx.stateProblem !== null || ctx.activeProblem !== null
            ? "playbook lint: errors"
            : null,
      loop:
        loop && (loop.session === null || loop.session === sessionId)
          ? loop
          : null,
    },
    deps.color,
  );
}
