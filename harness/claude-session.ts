import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { claudeCodeBinary, claudeCodeVersion } from "../scripts/claude-code.ts";

/** How Claude Code asks before a tool runs: bypass every prompt, or accept edits and allow only the listed tools. */
export type PermissionMode = "bypassPermissions" | "acceptEdits";

export interface ClaudeSessionOptions {
  /** The project Claude Code starts in. */
  cwd: string;
  /** The scripted model server's URL. */
  modelUrl: string;
  prompt: string;
  /**
   * More user messages for the same process, each sent once the previous one has its `result`
   * (`--input-format stream-json`): a slash command such as `/compact` and the message after it.
   */
  followUps?: string[];
  permissionMode?: PermissionMode;
  /** With `acceptEdits`, tools that run without asking (`--allowedTools`), e.g. `Bash(npx --no playbook *)`. */
  allowedTools?: string[];
  /** Continue this session (`--resume`). */
  resume?: string;
  /** Start the session as this agent (`--agent`). */
  agent?: string;
  /** Load a plugin from this folder (`--plugin-dir`). */
  pluginDir?: string;
  /** Load MCP servers from this JSON file (`--mcp-config`). */
  mcpConfig?: string;
  /** The throwaway home (HOME, CLAUDE_CONFIG_DIR); a fresh one when absent. Keep it across resumed sessions. */
  home?: string;
  /** Folders put first on the PATH of Claude Code, its hooks and its Bash tool. */
  path?: string[];
  /** More environment (`undefined` removes a variable). */
  env?: Record<string, string | undefined>;
  /** The Claude Code version to run; the pinned one (or PLAYBOOK_CLAUDE_CODE_VERSION) when absent. */
  version?: string;
  timeoutMs?: number;
  /** Called with each stream-json event as it arrives. */
  onEvent?: (event: StreamEvent) => void;
}

/** One line of `--output-format stream-json --verbose --include-hook-events`. */
export interface StreamEvent {
  type: string;
  subtype?: string;
  session_id?: string;
  [key: string]: unknown;
}

export interface ClaudeSession {
  sessionId: string;
  home: string;
  events: StreamEvent[];
  /** When each event arrived (ms on this process's performance clock), parallel to `events`. */
  eventTimes: number[];
  exitCode: number | null;
  stderr: string;
  /** The final `result` event, when the session reached one. */
  result: StreamEvent | undefined;
  wallMs: number;
}

/**
 * Variables of a surrounding session or of the developer's own setup that would change what the child Claude Code
 * does: where it sends requests, which account it uses, whether playbook is off, which project it belongs to.
 */
const INHERITED_SESSION = [
  "CLAUDECODE",
  "CLAUDE_PROJECT_DIR",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_MODEL",
  "PLAYBOOK_DISABLE",
  "FORCE_COLOR",
  "NO_COLOR",
  "CI",
];

/** A fresh home for one Claude Code session (its settings, transcripts and caches); removed by the caller. */
export function createClaudeHome(): string {
  const home = mkdtempSync(join(tmpdir(), "playbook-claude-home-"));
  mkdirSync(join(home, ".claude"), { recursive: true });
  return home;
}

/**
 * Runs the real Claude Code CLI headless (`-p --output-format stream-json --verbose`) against the scripted model:
 * a dummy key, no non-essential traffic, no auto-update, a throwaway home. It never blocks this process, so the model
 * server and a local GitHub in it keep answering.
 */
export function runClaude(
  options: ClaudeSessionOptions,
): Promise<ClaudeSession> {
  const home = options.home ?? createClaudeHome();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_SESSION) delete env[name];
  Object.assign(env, {
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    ANTHROPIC_BASE_URL: options.modelUrl,
    ANTHROPIC_API_KEY: "sk-ant-scripted-model-0000",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_TELEMETRY: "1",
    PATH: [...(options.path ?? []), process.env["PATH"] ?? ""].join(":"),
  });
  const mode = options.permissionMode ?? "bypassPermissions";
  // Claude Code refuses to skip permissions as root unless it is told it runs in a sandbox.
  if (mode === "bypassPermissions" && process.getuid?.() === 0)
    env["IS_SANDBOX"] = "1";
  for (const [name, value] of Object.entries(options.env ?? {}))
    if (value === undefined) delete env[name];
    else env[name] = value;
  const followUps = options.followUps ?? [];
  const args = [
    "-p",
    ...(followUps.length > 0
      ? ["--input-format", "stream-json"]
      : [options.prompt]),
    "--output-format",
    "stream-json",
    "--verbose",
    "--include-hook-events",
    ...(mode === "bypassPermissions"
      ? ["--dangerously-skip-permissions"]
      : ["--permission-mode", mode]),
    ...(options.allowedTools?.length
      ? ["--allowedTools", ...options.allowedTools]
      : []),
    ...(options.resume ? ["--resume", options.resume] : []),
    ...(options.agent ? ["--agent", options.agent] : []),
    ...(options.pluginDir ? ["--plugin-dir", options.pluginDir] : []),
    ...(options.mcpConfig ? ["--mcp-config", options.mcpConfig] : []),
  ];
  const binary = claudeCodeBinary(options.version ?? claudeCodeVersion());
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      cwd: options.cwd,
      env,
      stdio: [followUps.length > 0 ? "pipe" : "ignore", "pipe", "pipe"],
    });
    const queue = followUps.length > 0 ? [options.prompt, ...followUps] : [];
    const sendNext = () => {
      const text = queue.shift();
      if (text === undefined) child.stdin?.end();
      else
        child.stdin?.write(
          `${JSON.stringify({ type: "user", message: { role: "user", content: text } })}\n`,
        );
    };
    if (followUps.length > 0) sendNext();
    const events: StreamEvent[] = [];
    const eventTimes: number[] = [];
    let pending = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
        if (line === "") continue;
        try {
          const event = JSON.parse(line) as StreamEvent;
          events.push(event);
          eventTimes.push(performance.now());
          options.onEvent?.(event);
          if (event.type === "result" && followUps.length > 0) sendNext();
        } catch {
          stderr += `(not JSON on stdout) ${line}\n`;
        }
      }
    });
    child
      .stderr!.setEncoding("utf8")
      .on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(
      () => child.kill("SIGKILL"),
      options.timeoutMs ?? 300_000,
    );
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (exitCode) => {
      clearTimeout(timer);
      const result = events.findLast((event) => event.type === "result");
      resolve({
        sessionId: String(events.find((e) => e.session_id)?.session_id ?? ""),
        home,
        events,
        eventTimes,
        exitCode,
        stderr,
        result,
        wallMs: performance.now() - started,
      });
    });
  });
}

/** Removes a home made by `createClaudeHome`. */
export function removeClaudeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/** One hook process Claude Code ran, timed from its `hook_started` to its `hook_response` event. */
export interface HookRun {
  /** `PreToolUse`, `Stop`, ... */
  event: string;
  /** Claude Code's label: `PreToolUse:Write`, `SessionStart:startup`. */
  name: string;
  ms: number;
  exitCode: number | null;
  stdout: string;
}

/**
 * The hook runs of a session (`--include-hook-events`). Claude Code reports no duration, so each is the time between
 * the two events as they reached this process: an upper bound that includes Claude Code's own bookkeeping.
 */
export function hookRunsOf(session: ClaudeSession): HookRun[] {
  const started = new Map<string, number>();
  const runs: HookRun[] = [];
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  session.events.forEach((event, index) => {
    const id = text(event["hook_id"]);
    const at = session.eventTimes[index] ?? 0;
    if (event.subtype === "hook_started") started.set(id, at);
    if (event.subtype === "hook_response")
      runs.push({
        event: text(event["hook_event"]),
        name: text(event["hook_name"]),
        ms: at - (started.get(id) ?? at),
        exitCode:
          typeof event["exit_code"] === "number" ? event["exit_code"] : null,
        stdout: text(event["stdout"]),
      });
  });
  return runs;
}
