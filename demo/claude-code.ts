import { spawn } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
  existsSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";

/** One hook handler from `.claude/settings.json`, in Claude Code's exec form (`args`) or shell form. */
interface HookHandler {
  type: string;
  command: string;
  args?: string[];
  timeout?: number;
}

interface MatcherGroup {
  matcher?: string;
  hooks: HookHandler[];
}

/** What one hook process answered, as Claude Code would read it. */
export interface HookAnswer {
  event: string;
  /** `deny` for a refused tool call, `block` for a refused stop or prompt, else null. */
  decision: "deny" | "block" | null;
  reason: string;
  /** `additionalContext`: text the model reads. */
  context: string;
  /** `systemMessage`: text the user sees. */
  notice: string;
  exitCode: number | null;
  stderr: string;
  /** Wall time of the hook process, spawn to exit. */
  ms: number;
}

export interface ToolCall {
  tool: "Read" | "Write" | "Edit" | "Bash";
  input: Record<string, unknown>;
  /** The subagent making the call (`agent_type` in the payload); the main agent when absent. */
  agent?: string;
}

export interface ToolOutcome {
  call: ToolCall;
  pre: HookAnswer;
  allowed: boolean;
  /** For Bash: what the command printed (stdout then stderr). */
  output: string;
  /** For Bash: the command's exit code; 0 for the file tools. */
  exitCode: number;
  /** The PostToolUse (or PostToolUseFailure) answer, null when the call was refused. */
  post: HookAnswer | null;
}

export interface ClaudeCodeOptions {
  /** The project root: `CLAUDE_PROJECT_DIR`, where the Bash tool runs. */
  project: string;
  /** The folder of a `playbook` executable, put first on the Bash tool's PATH. */
  binDir: string;
  sessionId?: string;
  /** Extra environment for hooks and commands (`undefined` removes a variable). */
  env?: Record<string, string | undefined>;
  /** Called with every hook answer, in order. */
  onHook?: (answer: HookAnswer) => void;
}

export interface ClaudeCode {
  sessionId: string;
  /** A tool call as Claude Code makes it: PreToolUse, the tool itself when allowed, then PostToolUse. */
  tool(call: ToolCall): Promise<ToolOutcome>;
  /** A non-tool event (SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd) with its own fields. */
  event(name: string, fields?: Record<string, unknown>): Promise<HookAnswer>;
  /** The status line Claude Code would show. */
  statusLine(): Promise<string>;
  /** Every hook answer so far. */
  readonly answers: readonly HookAnswer[];
}

/**
 * The environment without what a surrounding session set: the kill switch, another project's directory and
 * session. The demo runs its own session, in its own project, from wherever it is started.
 */
export function withoutSessionVariables(
  env: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of [
    "PLAYBOOK_DISABLE",
    "CLAUDECODE",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_CODE_SESSION_ID",
  ])
    delete out[name];
  return out;
}

/** Writes `dir/playbook`, a shell script that runs the CLI at `cliPath`: a global install, as the agent's shell sees it. */
export function writePlaybookShim(dir: string, cliPath: string): void {
  mkdirSync(dir, { recursive: true });
  const shim = join(dir, "playbook");
  writeFileSync(
    shim,
    `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
}

/**
 * A stand-in for Claude Code that drives the real hooks: it reads the handlers `playbook init` wrote into
 * `.claude/settings.json`, spawns each for its event with the documented JSON on stdin, honours a `deny`, and
 * performs the allowed tools itself (Write and Edit on disk, Bash through `sh -c`). Everything is asynchronous so a
 * server in this process (the local GitHub) keeps answering while a hook runs.
 */
export function createClaudeCode(options: ClaudeCodeOptions): ClaudeCode {
  const sessionId = options.sessionId ?? "demo-session";
  const answers: HookAnswer[] = [];
  const transcript = join(options.project, ".claude", "transcript.jsonl");
  const env = (): NodeJS.ProcessEnv => {
    const out: NodeJS.ProcessEnv = {
      ...withoutSessionVariables(process.env),
      CLAUDECODE: "1",
      CLAUDE_PROJECT_DIR: options.project,
      CLAUDE_CODE_SESSION_ID: sessionId,
      PATH: `${options.binDir}:${process.env["PATH"] ?? ""}`,
    };
    for (const [name, value] of Object.entries(options.env ?? {}))
      if (value === undefined) delete out[name];
      else out[name] = value;
    return out;
  };
  const settings = () =>
    JSON.parse(
      readFileSync(join(options.project, ".claude", "settings.json"), "utf8"),
    ) as {
      hooks?: Record<string, MatcherGroup[]>;
      statusLine?: { command: string };
    };
  const handlers = (event: string, tool: string | null) =>
    (settings().hooks?.[event] ?? [])
      .filter(
        (group) =>
          tool === null ||
          group.matcher === undefined ||
          group.matcher === "" ||
          group.matcher === "*" ||
          new RegExp(`^(?:${group.matcher})$`).test(tool),
      )
      .flatMap((group) => group.hooks.filter((h) => h.type === "command"));

  const runHandler = async (
    handler: HookHandler,
    event: string,
    payload: Record<string, unknown>,
  ): Promise<HookAnswer> => {
    const expand = (text: string) =>
      text.replaceAll("${CLAUDE_PROJECT_DIR}", options.project);
    const started = performance.now();
    const result = await spawnText(
      handler.args ? expand(handler.command) : "sh",
      handler.args ? handler.args.map(expand) : ["-c", expand(handler.command)],
      {
        cwd: options.project,
        env: env(),
        input: JSON.stringify(payload),
        timeoutMs: (handler.timeout ?? 60) * 1000,
      },
    );
    const answer = readAnswer(event, result, performance.now() - started);
    answers.push(answer);
    options.onHook?.(answer);
    return answer;
  };

  const fire = async (
    event: string,
    tool: string | null,
    fields: Record<string, unknown>,
  ): Promise<HookAnswer> => {
    const payload = {
      session_id: sessionId,
      transcript_path: transcript,
      cwd: options.project,
      hook_event_name: event,
      ...fields,
    };
    const merged: HookAnswer = {
      event,
      decision: null,
      reason: "",
      context: "",
      notice: "",
      exitCode: 0,
      stderr: "",
      ms: 0,
    };
    for (const handler of handlers(event, tool)) {
      const answer = await runHandler(handler, event, payload);
      merged.ms += answer.ms;
      merged.decision ??= answer.decision;
      merged.reason ||= answer.reason;
      merged.context = [merged.context, answer.context]
        .filter(Boolean)
        .join("\n");
      merged.notice = [merged.notice, answer.notice].filter(Boolean).join("\n");
      merged.stderr += answer.stderr;
      if (answer.exitCode !== 0) merged.exitCode = answer.exitCode;
    }
    return merged;
  };

  let toolUse = 0;
  const tool = async (call: ToolCall): Promise<ToolOutcome> => {
    const id = `toolu_demo_${String(++toolUse).padStart(3, "0")}`;
    const common = {
      tool_name: call.tool,
      tool_input: call.input,
      tool_use_id: id,
      ...(call.agent
        ? { agent_id: `agent-${call.agent}`, agent_type: call.agent }
        : {}),
    };
    const pre = await fire("PreToolUse", call.tool, {
      permission_mode: "default",
      ...common,
    });
    if (pre.decision === "deny")
      return { call, pre, allowed: false, output: "", exitCode: 0, post: null };
    const done = await perform(call, options.project, env());
    // A failed tool (an Edit that does not match, a command that exits non-zero) is reported as a failure.
    const post =
      done.exitCode === 0
        ? await fire("PostToolUse", call.tool, {
            ...common,
            tool_response: done.response,
          })
        : await fire("PostToolUseFailure", call.tool, {
            ...common,
            error:
              call.tool === "Bash"
                ? `Exit code ${done.exitCode}\n${done.output}`
                : done.output,
            is_interrupt: false,
          });
    return {
      call,
      pre,
      allowed: true,
      output: done.output,
      exitCode: done.exitCode,
      post,
    };
  };

  return {
    sessionId,
    answers,
    tool,
    event: (name, fields = {}) => fire(name, null, fields),
    async statusLine() {
      const line = settings().statusLine;
      if (!line) return "";
      const result = await spawnText("sh", ["-c", line.command], {
        cwd: options.project,
        env: env(),
        input: JSON.stringify({
          session_id: sessionId,
          cwd: options.project,
          workspace: {
            current_dir: options.project,
            project_dir: options.project,
          },
        }),
        timeoutMs: 10_000,
      });
      return result.stdout.trim();
    },
  };
}

interface Performed {
  exitCode: number;
  output: string;
  response: Record<string, unknown>;
}

/** Carries out an allowed tool call the way Claude Code's own tools would. */
async function perform(
  call: ToolCall,
  project: string,
  env: NodeJS.ProcessEnv,
): Promise<Performed> {
  const input = call.input;
  const file = typeof input["file_path"] === "string" ? input["file_path"] : "";
  switch (call.tool) {
    case "Read":
      return {
        exitCode: 0,
        output: "",
        response: { type: "text", file: { filePath: file } },
      };
    case "Write": {
      const existed = existsSync(file);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, String(input["content"]));
      return {
        exitCode: 0,
        output: "",
        response: { type: existed ? "update" : "create", filePath: file },
      };
    }
    case "Edit": {
      const before = readFileSync(file, "utf8");
      const oldString = String(input["old_string"]);
      const at = before.indexOf(oldString);
      if (at < 0 || before.indexOf(oldString, at + 1) >= 0)
        return {
          exitCode: 1,
          output: `String to replace ${at < 0 ? "not found" : "found more than once"} in ${file}`,
          response: {},
        };
      writeFileSync(
        file,
        before.slice(0, at) +
          String(input["new_string"]) +
          before.slice(at + oldString.length),
      );
      return {
        exitCode: 0,
        output: "",
        response: { filePath: file, success: true },
      };
    }
    case "Bash": {
      const result = await spawnText("sh", ["-c", String(input["command"])], {
        cwd: project,
        env,
        input: "",
        timeoutMs: 120_000,
      });
      const output = result.stdout + result.stderr;
      return {
        exitCode: result.status ?? 1,
        output,
        response: {
          stdout: result.stdout,
          stderr: result.stderr,
          interrupted: false,
          isImage: false,
        },
      };
    }
  }
}

export interface SpawnedText {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs `command` to completion without blocking this process (a server in it keeps answering); kills it at `timeoutMs`. */
export function spawnText(
  command: string,
  args: string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    input: string;
    timeoutMs: number;
  },
): Promise<SpawnedText> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    let stdout = "";
    let stderr = "";
    child.stdout
      .setEncoding("utf8")
      .on("data", (chunk: string) => (stdout += chunk));
    child.stderr
      .setEncoding("utf8")
      .on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, status });
    });
    child.stdin.end(options.input);
  });
}

/** A hook's JSON reply as Claude Code reads it: the decision, its reason, the model's context, the user's notice. */
export interface HookReply {
  decision: "deny" | "block" | null;
  reason: string;
  context: string;
  notice: string;
}

/** Reads a hook's stdout (empty, or one JSON object) into what Claude Code acts on. */
export function readHookReply(stdout: string): HookReply {
  const out: HookReply = {
    decision: null,
    reason: "",
    context: "",
    notice: "",
  };
  if (stdout.trim() === "") return out;
  const reply = JSON.parse(stdout) as {
    decision?: string;
    reason?: string;
    systemMessage?: string;
    hookSpecificOutput?: {
      permissionDecision?: string;
      permissionDecisionReason?: string;
      additionalContext?: string;
    };
  };
  const specific = reply.hookSpecificOutput ?? {};
  if (specific.permissionDecision === "deny") {
    out.decision = "deny";
    out.reason = specific.permissionDecisionReason ?? "";
  } else if (reply.decision === "block") {
    out.decision = "block";
    out.reason = reply.reason ?? "";
  }
  out.context = specific.additionalContext ?? "";
  out.notice = reply.systemMessage ?? "";
  return out;
}

/** Claude Code's reading of a hook's exit code and output: exit 2 blocks with stderr as the reason, exit 0 is JSON. */
function readAnswer(
  event: string,
  result: SpawnedText,
  ms: number,
): HookAnswer {
  const base = { event, exitCode: result.status, stderr: result.stderr, ms };
  if (result.status === 2)
    return {
      ...base,
      decision: event === "PreToolUse" ? "deny" : "block",
      reason: result.stderr.trim(),
      context: "",
      notice: "",
    };
  return {
    ...base,
    ...(result.status === 0 ? readHookReply(result.stdout) : readHookReply("")),
  };
}
