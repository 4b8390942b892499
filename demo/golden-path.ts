import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  hookRunsOf,
  runClaude,
  type ClaudeSession,
  type HookRun,
  type PermissionMode,
} from "../harness/claude-session.ts";
import {
  startModelServer,
  type LoggedRequest,
  type ScriptedToolUse,
  type ScriptedTurn,
} from "../harness/model-server.ts";
import {
  contextsOf,
  readModelReply,
  type ModelReply,
} from "../harness/model-view.ts";
import { spawnText } from "../harness/spawn-text.ts";
import {
  installPlaybook,
  npxEnv,
  npxPlaybookArgs,
} from "./install-playbook.ts";
import { createSampleProject, type SampleProject } from "./sample-project.ts";

/** Who acts in a step: the main agent, a subagent, the person at the terminal, or Claude Code itself. */
export type Actor =
  "agent" | "pm" | "reviewer" | "critic" | "user" | "claude-code";

/** The actors the scripted model plays: the session's own agent and the subagents it starts. */
export type ModelActor = Exclude<Actor, "user" | "claude-code">;

/**
 * What happened to a move: a tool call was allowed (and ran), denied by a hook, or failed in Claude Code or in the
 * tool; a closing text was let stop, or blocked by a Stop hook with the next step. `ok`/`fail` are for the user's
 * commands and Claude Code's events; `missing` for a move Claude Code never asked the model for.
 */
export type Verdict =
  "allow" | "deny" | "fail" | "stop" | "block" | "ok" | "missing";

/** One move of the scripted model: a tool call or a text that ends its turn, and the verdict the path expects. */
export interface Move {
  actor: ModelActor;
  title: string;
  expect: Exclude<Verdict, "ok" | "missing">;
  tool?: ScriptedToolUse;
  text?: string;
  /** A heading printed before this move (the demo's stages). */
  stage?: string;
  /** Runs when Claude Code asks for this move, before it gets it (a test changes the world here). */
  before?: () => void;
  /** Left out of the transcript when it goes as expected (the Reads Claude Code wants before an Edit). */
  quiet?: boolean;
}

/** One line of the transcript: what was tried, what the model was told, and whether the path expected it. */
export interface Step {
  actor: Actor;
  title: string;
  verdict: Verdict;
  expected: boolean;
  /** What the model or the user read: the block reason, the hook context, the command's output (trimmed). */
  lines: string[];
  stage?: string;
  /** For a move: what the model was told after it (null for the last move of a session or a subagent). */
  reply?: ModelReply | null;
}

export interface GoldenPathOptions {
  /** The folder everything is created in: the sample project, its bare remote, Claude Code's home. */
  root: string;
  /** Environment for Claude Code, its hooks and the user's terminal (`undefined` removes a variable). */
  env?: Record<string, string | undefined>;
  /** Called with every step as soon as its outcome is known. */
  onStep?: (step: Step) => void;
  /** Written into `.claude/playbook.json` after init, as the user would. */
  config?: Record<string, unknown>;
  /** Runs once the sample project and its remote exist, before init (the demo starts the local GitHub here). */
  prepare?: (project: SampleProject) => Promise<void>;
  /** Install playbook's files without hooks, agents, skills or commands: the plugin brings those (`init --plugin`). */
  plugin?: boolean;
  /** The sample project's files (the Node `calc` by default; PYTHON_SAMPLE_FILES for a repository without npm). */
  files?: Record<string, string>;
  /**
   * How playbook is set up: `npm` installs the tarball into the project's node_modules, then `npx --no playbook init`;
   * `runtime` runs `npx --package=<tarball> playbook init`, as `npx playbook-kit@<version> init` does in any repository.
   */
  setup?: "npm" | "runtime";
}

export interface TerminalResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface SessionOptions {
  /** The working tree Claude Code starts in (a linked worktree of the project); the project when absent. */
  dir?: string;
  prompt: string;
  /** More user messages in the same session, each once the previous turn has ended (a `/compact`, then a prompt). */
  followUps?: string[];
  moves: Move[];
  /** Continue the world's previous session in the same working tree (`claude --resume`), as the user's next message. */
  resume?: boolean;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  /** Start the session as this agent (`claude --agent`). */
  agent?: string;
  /** Load playbook as a plugin from this folder (`claude --plugin-dir`). */
  pluginDir?: string;
  /** Load MCP servers from this JSON file (`claude --mcp-config`). */
  mcpConfig?: string;
  /** Text the UserPromptSubmit context must hold for the prompt step to be as expected. */
  promptContext?: string;
  env?: Record<string, string | undefined>;
}

/** A finished session: Claude Code's own stream, every request the model got, the steps and the hook runs. */
export interface SessionOutcome {
  /** The working tree the session ran in. */
  dir: string;
  session: ClaudeSession;
  requests: LoggedRequest[];
  steps: Step[];
  hooks: HookRun[];
  /**
   * The moves the model played again because Claude Code's sandbox could not start their command (a parallel
   * session's sandbox held the repository's `.git/config.lock`, anthropics/claude-code#78818), once per replay.
   */
  replays: string[];
}

export interface GoldenPath {
  project: SampleProject;
  /** Claude Code's throwaway home (HOME and CLAUDE_CONFIG_DIR), kept across the sessions of this world. */
  home: string;
  /** The installed CLI: `node_modules/playbook-kit/dist/cli.mjs` of the sample project. */
  cli: string;
  steps: Step[];
  hooks: HookRun[];
  sessions: SessionOutcome[];
  path(relative: string): string;
  read(relative: string): string;
  /** The person at the terminal runs `playbook ...args` (outside Claude Code). */
  user(title: string, args: string[]): Promise<TerminalResult>;
  /** The user starts Claude Code (or resumes it) with a prompt; the scripted model makes the moves. */
  session(options: SessionOptions): Promise<SessionOutcome>;
  /** The status line Claude Code shows, from the command `init` wrote into `.claude/settings.json`. */
  statusLine(): Promise<string>;
}

/**
 * The world of the demo and the end-to-end tests: the sample project with its bare remote, playbook installed from
 * the packed tarball and set up by `playbook init --yes`, committed on main by the user; sessions of the real Claude
 * Code CLI against a scripted model.
 */
export async function createGoldenPath(
  options: GoldenPathOptions,
): Promise<GoldenPath> {
  const project = createSampleProject(options.root, options.files);
  await options.prepare?.(project);
  const runtime = options.setup === "runtime";
  const cli = runtime
    ? join(project.dir, ".claude", "playbook", "runtime", "dist", "cli.mjs")
    : installPlaybook(project.dir);
  const home = join(options.root, "claude-home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  const steps: Step[] = [];
  const hooks: HookRun[] = [];
  const sessions: SessionOutcome[] = [];
  const report = (step: Step) => {
    steps.push(step);
    options.onStep?.(step);
  };
  const path = (relative: string) => join(project.dir, relative);
  const read = (relative: string) => readFileSync(path(relative), "utf8");

  const user: GoldenPath["user"] = async (title, args) => {
    const result = await spawnText(process.execPath, [cli, ...args], {
      cwd: project.dir,
      env: terminalEnv(options.env ?? {}),
      input: "",
      timeoutMs: 120_000,
    });
    report({
      actor: "user",
      title: `${title}: playbook ${args.join(" ")}`,
      verdict: result.status === 0 ? "ok" : "fail",
      expected: result.status === 0,
      lines: lastLines(result.stdout + result.stderr, 1),
    });
    return result;
  };

  const session: GoldenPath["session"] = async (run) => {
    const dir = run.dir ?? project.dir;
    const outcome = await runSession({
      run,
      project: dir,
      home,
      resume: run.resume
        ? sessions.findLast((s) => s.dir === dir)?.session.sessionId
        : undefined,
      env: { ...options.env, ...run.env },
      report,
    });
    sessions.push(outcome);
    hooks.push(...outcome.hooks);
    return outcome;
  };

  const statusLine: GoldenPath["statusLine"] = async () => {
    const settings = JSON.parse(read(".claude/settings.json")) as {
      statusLine?: { command?: string };
    };
    const command = settings.statusLine?.command;
    if (command === undefined) return "";
    const result = await spawnText("sh", ["-c", command], {
      cwd: project.dir,
      env: {
        ...terminalEnv(options.env ?? {}),
        CLAUDE_PROJECT_DIR: project.dir,
      },
      input: JSON.stringify({
        session_id: sessions.at(-1)?.session.sessionId ?? "",
        cwd: project.dir,
        workspace: { current_dir: project.dir, project_dir: project.dir },
      }),
      timeoutMs: 10_000,
    });
    return result.stdout.trim();
  };

  const world: GoldenPath = {
    project,
    home,
    cli,
    steps,
    hooks,
    sessions,
    path,
    read,
    user,
    session,
    statusLine,
  };
  const initArgs = options.plugin
    ? ["init", "--yes", "--plugin"]
    : ["init", "--yes"];
  if (runtime) {
    const result = await spawnText("npx", npxPlaybookArgs(initArgs), {
      cwd: project.dir,
      env: npxEnv(
        terminalEnv(options.env ?? {}),
        join(options.root, "npm-cache"),
      ),
      input: "",
      timeoutMs: 180_000,
    });
    report({
      actor: "user",
      title: `set up playbook in calc: npx playbook-kit ${initArgs.join(" ")}`,
      verdict: result.status === 0 ? "ok" : "fail",
      expected: result.status === 0,
      lines: lastLines(result.stdout + result.stderr, 1),
    });
  } else await user("install playbook into calc", initArgs);
  if (options.config)
    writeFileSync(
      path(".claude/playbook.json"),
      `${JSON.stringify(options.config, null, 2)}\n`,
    );
  project.git("add", "-A");
  project.git("commit", "-q", "-m", "Set up playbook");
  project.git("push", "-q", "origin", "main");
  return world;
}

/**
 * One session of the real Claude Code CLI: a scripted model server built from the moves (the main agent's queue and
 * one per subagent, told apart by the first line of the agent's definition), the CLI run headless against it, and a
 * step per move, reported as soon as what the model was told after it is known.
 */
async function runSession(input: {
  run: SessionOptions;
  project: string;
  home: string;
  resume: string | undefined;
  env: Record<string, string | undefined>;
  report: (step: Step) => void;
}): Promise<SessionOutcome> {
  const { run, project } = input;
  const queues = new Map<ModelActor, Move[]>();
  for (const move of run.moves)
    queues.set(move.actor, [...(queues.get(move.actor) ?? []), move]);
  const turnOf = (move: Move): ScriptedTurn => {
    const turn = move.tool
      ? { tools: [move.tool] }
      : { text: move.text ?? "Done." };
    return move.before
      ? () => {
          move.before?.();
          return turn;
        }
      : turn;
  };
  // The moves in the order Claude Code asked for them; each becomes a step once its outcome is known.
  const played: { move: Move; request: number; key: string }[] = [];
  const steps: Step[] = [];
  const report = (step: Step) => {
    steps.push(step);
    input.report(step);
  };
  let shown = 0;
  const resolveReady = (requests: readonly LoggedRequest[], final: boolean) => {
    for (const entry of played.slice(shown)) {
      const step = toStep(entry.move, entry.request, requests, final);
      if (step === null) return;
      shown++;
      if (!entry.move.quiet || !step.expected) report(step);
    }
  };
  const seen = new Set<string>();
  const replays: string[] = [];
  let prompted = false;
  const onRequest = (request: LoggedRequest, index: number) => {
    if (request.agent === "main" && !prompted) {
      prompted = true;
      promptSteps(run, request).forEach(report);
    }
    if (request.turn !== null) {
      // A retried request gets the same turn again: the move was played once.
      const key = `${request.agent}#${request.turn}`;
      const actor = (
        request.agent === "main" ? "agent" : request.agent
      ) as ModelActor;
      const move = queues.get(actor)?.[request.turn];
      const replayed = request.replay
        ? played.find((entry) => entry.key === key)
        : undefined;
      // A move played again after its sandbox never started: its step is the outcome of the last time.
      if (replayed) {
        replayed.request = index;
        replays.push(move?.title ?? key);
      } else if (!seen.has(key) && move)
        played.push({ move, request: index, key });
      seen.add(key);
    }
    resolveReady(server.requests, false);
  };
  const subagents = [...queues.keys()].filter((actor) => actor !== "agent");
  const server = await startModelServer(
    {
      main: (queues.get("agent") ?? []).map(turnOf),
      agents: Object.fromEntries(
        subagents.map((actor) => [
          actor,
          {
            marker: agentMarker(project, run.pluginDir, actor),
            turns: (queues.get(actor) ?? []).map(turnOf),
          },
        ]),
      ),
    },
    { onRequest },
  );
  let session: ClaudeSession;
  try {
    session = await runClaude({
      cwd: project,
      modelUrl: server.url,
      prompt: run.prompt,
      ...(run.followUps ? { followUps: run.followUps } : {}),
      home: input.home,
      path: [],
      env: input.env,
      ...(run.permissionMode ? { permissionMode: run.permissionMode } : {}),
      ...(run.allowedTools ? { allowedTools: run.allowedTools } : {}),
      ...(input.resume ? { resume: input.resume } : {}),
      ...(run.agent ? { agent: run.agent } : {}),
      ...(run.pluginDir ? { pluginDir: run.pluginDir } : {}),
      ...(run.mcpConfig ? { mcpConfig: run.mcpConfig } : {}),
    });
  } finally {
    await server.close();
  }
  resolveReady(server.requests, true);
  const playedMoves = new Set(played.map((entry) => entry.move));
  for (const move of run.moves.filter((m) => !playedMoves.has(m))) {
    report({
      actor: move.actor,
      title: move.title,
      verdict: "missing",
      expected: false,
      lines: [
        session.exitCode === 0
          ? "Claude Code never asked the model for this move."
          : `Claude Code ended first (exit ${String(session.exitCode)}): ${lastLines(session.stderr, 1).join("")}`,
      ],
      ...(move.stage ? { stage: move.stage } : {}),
    });
  }
  return {
    dir: project,
    session,
    requests: server.requests,
    steps,
    hooks: hookRunsOf(session),
    replays,
  };
}

/** The session start and the prompt, as the model first read them: SessionStart and UserPromptSubmit context. */
function promptSteps(run: SessionOptions, first: LoggedRequest): Step[] {
  const contexts = contextsOf(first);
  const of = (event: string) =>
    contexts
      .filter((c) => c.event === event)
      .map((c) => c.text)
      .join("\n");
  const start = of("SessionStart");
  const prompt = of("UserPromptSubmit");
  const promptOk =
    run.promptContext === undefined || prompt.includes(run.promptContext);
  return [
    {
      actor: "claude-code",
      title: `the session ${run.resume ? "resumes" : "starts"}: SessionStart tells the model where the work stands`,
      verdict: start !== "" ? "ok" : "fail",
      expected: start !== "",
      lines: contextLines(start).slice(0, 3),
    },
    {
      actor: "claude-code",
      title: `the user types: "${run.prompt}"`,
      verdict: promptOk ? "ok" : "fail",
      expected: promptOk,
      lines: contextLines(prompt),
    },
  ];
}

/**
 * The step of a move played in `requests[index]`, or null while its outcome is unknown. A delegation is known to be
 * allowed as soon as its subagent asks the model; any move is settled once the session is over.
 */
function toStep(
  move: Move,
  index: number,
  requests: readonly LoggedRequest[],
  final: boolean,
): Step | null {
  const reply = readModelReply(
    requests,
    index,
    move.tool ? undefined : move.text,
  );
  const base = {
    actor: move.actor,
    title: move.title,
    ...(move.stage ? { stage: move.stage } : {}),
    reply,
  };
  const delegated =
    move.tool?.name === "Agent" &&
    requests
      .slice(index + 1)
      .some((r) => r.agent !== "main" && r.agent !== "other");
  if (reply === null && !final && !delegated) return null;
  let verdict: Verdict;
  let lines: string[] = [];
  if (move.tool) {
    const result = reply?.result ?? null;
    if (result === null) verdict = delegated ? "allow" : "missing";
    else if (result.isError && isHookDenial(result.text)) {
      verdict = "deny";
      lines = reasonLines(result.text);
    } else if (result.isError) {
      verdict = "fail";
      lines = lastLines(result.text, 3);
    } else {
      verdict = "allow";
      if (move.tool.name === "Bash") lines = lastLines(result.text, 4);
    }
  } else {
    verdict = reply?.feedback ? "block" : "stop";
    if (reply?.feedback)
      lines = [reply.feedback.split(" (continuation")[0] ?? ""];
  }
  for (const context of reply?.contexts ?? [])
    if (context.event.startsWith("Post"))
      lines.push(...contextLines(context.text));
  return { ...base, verdict, expected: verdict === move.expect, lines };
}

/** A refusal by playbook's hook: every one of its block messages names the kill switch. */
function isHookDenial(text: string): boolean {
  return text.includes("PLAYBOOK_DISABLE=1");
}

/** The first non-empty line of the agent's definition body: in the subagent's system prompt and no other. */
function agentMarker(
  project: string,
  pluginDir: string | undefined,
  actor: string,
): string {
  const file = pluginDir
    ? join(pluginDir, "agents", `${actor}.md`)
    : join(project, ".claude", "agents", `${actor}.md`);
  const body = readFileSync(file, "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
  return (
    body
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? actor
  );
}

/** The environment of the person's terminal: not inside any Claude Code session, playbook not switched off. */
export function terminalEnv(
  overrides: Record<string, string | undefined>,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    "PLAYBOOK_DISABLE",
    "CLAUDECODE",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_ENTRYPOINT",
  ])
    delete env[name];
  for (const [name, value] of Object.entries(overrides))
    if (value === undefined) delete env[name];
    else env[name] = value;
  return env;
}

/** The block reason as the model reads it, without Claude Code's label and the kill-switch sentence: what, then `Next:`. */
function reasonLines(reason: string): string[] {
  const unlabelled = reason.replace(/^PreToolUse:\S+ hook error:\s*/, "");
  const kill = unlabelled.indexOf(" Kill switch:");
  const text = (kill > 0 ? unlabelled.slice(0, kill) : unlabelled)
    .replace(/\s+/g, " ")
    .trim();
  const next = text.indexOf(" Next: ");
  return next > 0 ? [text.slice(0, next), text.slice(next + 1)] : [text];
}

/** Context as transcript lines; the archive's step list (`Steps: ✓ a; ✓ b`) gets a line per step. */
function contextLines(text: string): string[] {
  return text
    .replace(/ Steps: (?=[✓✗] )/, "\n")
    .replace(/; (?=[✓✗] )/g, "\n")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 12);
}

/** The last `count` lines of a command's output, without npm's warnings about the machine's own npm config. */
function lastLines(text: string, count: number): string[] {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "" && !line.startsWith("npm warn "))
    .slice(-count);
}
