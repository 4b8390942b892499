import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createClaudeCode,
  spawnText,
  withoutSessionVariables,
  writePlaybookShim,
  type ClaudeCode,
  type HookAnswer,
  type ToolCall,
  type ToolOutcome,
} from "./claude-code.ts";
import { createSampleProject, type SampleProject } from "./sample-project.ts";
import type { SampleTask } from "./tasks.ts";

/** Who acts in a step: the main agent, a subagent, the person at the terminal, or Claude Code itself. */
export type Actor =
  "agent" | "pm" | "reviewer" | "critic" | "user" | "claude-code";

/** One line of the transcript: what was tried, what the hooks said, and whether that is what the path expects. */
export interface Step {
  actor: Actor;
  title: string;
  /** `allow` / `deny` for tool calls; `ok` / `fail` for commands and events. */
  verdict: "allow" | "deny" | "block" | "ok" | "fail";
  /** Whether the verdict is the one the Golden Path expects here. */
  expected: boolean;
  /** What the user or the model read: the block reason, the context, the command's output (trimmed). */
  lines: string[];
}

export interface GoldenPathOptions {
  /** The folder everything is created in (the sample project, its bare remote, the `playbook` shim). */
  root: string;
  /** The built CLI (`dist/cli.mjs`). */
  cli: string;
  /** Environment for the hooks, the agent's shell and the user's terminal (`undefined` removes a variable). */
  env?: Record<string, string | undefined>;
  /** Called with every step as it happens. */
  onStep?: (step: Step) => void;
  /** Written into `.claude/playbook.json` after init, as the user would. */
  config?: Record<string, unknown>;
  /** Runs once the sample project and its remote exist, before init (the demo starts the local GitHub here). */
  prepare?: (project: SampleProject) => Promise<void>;
}

export interface TerminalResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface GoldenPath {
  project: SampleProject;
  claude: ClaudeCode;
  steps: Step[];
  path(relative: string): string;
  read(relative: string): string;
  /** The person at the terminal runs `playbook ...args` (no `CLAUDECODE`, as outside Claude Code). */
  user(title: string, args: string[]): Promise<TerminalResult>;
  /** A tool call by the main agent or a subagent; `expect` is the verdict the Golden Path expects. */
  agent(
    actor: Actor,
    title: string,
    call: Omit<ToolCall, "agent">,
    expect: "allow" | "deny",
  ): Promise<ToolOutcome>;
  /** Shorthands for `agent` with one tool: a shell command, a whole file, one replacement in a file. */
  bash(
    actor: Actor,
    title: string,
    command: string,
    expect: "allow" | "deny",
  ): Promise<ToolOutcome>;
  write(
    actor: Actor,
    title: string,
    file: string,
    content: string,
    expect: "allow" | "deny",
  ): Promise<ToolOutcome>;
  edit(
    actor: Actor,
    title: string,
    file: string,
    change: [oldString: string, newString: string],
    expect: "allow" | "deny",
  ): Promise<ToolOutcome>;
  /** A session event, with whether its answer is the one expected. */
  event(
    title: string,
    name: string,
    fields: Record<string, unknown>,
    expect: (answer: HookAnswer) => boolean,
    show?: (answer: HookAnswer) => string[],
  ): Promise<HookAnswer>;
}

/**
 * The world of the demo and the end-to-end tests: the sample project with its bare remote, playbook installed by
 * `playbook init --yes` and committed by the user, and a Claude Code stand-in wired by the settings init wrote.
 */
export async function createGoldenPath(
  options: GoldenPathOptions,
): Promise<GoldenPath> {
  const project = createSampleProject(options.root);
  await options.prepare?.(project);
  const binDir = join(options.root, "bin");
  writePlaybookShim(binDir, options.cli);
  const steps: Step[] = [];
  const report = (step: Step) => {
    steps.push(step);
    options.onStep?.(step);
  };
  const claude = createClaudeCode({
    project: project.dir,
    binDir,
    env: options.env ?? {},
  });
  const path = (relative: string) => join(project.dir, relative);
  const read = (relative: string) => readFileSync(path(relative), "utf8");

  const user: GoldenPath["user"] = async (title, args) => {
    const result = await runNode(
      [options.cli, ...args],
      project.dir,
      options.env ?? {},
    );
    report({
      actor: "user",
      title: `${title}: playbook ${args.join(" ")}`,
      verdict: result.status === 0 ? "ok" : "fail",
      expected: result.status === 0,
      lines: lastLines(result.stdout + result.stderr, 1),
    });
    return result;
  };

  const agent: GoldenPath["agent"] = async (actor, title, call, expect) => {
    const outcome = await claude.tool({
      ...call,
      ...(actor === "agent" ? {} : { agent: actor }),
    });
    const failedCommand = outcome.allowed && outcome.exitCode !== 0;
    const verdict = outcome.allowed ? "allow" : "deny";
    const lines = !outcome.allowed
      ? splitReason(outcome.pre.reason)
      : [
          ...(call.tool === "Bash" ? lastLines(outcome.output, 4) : []),
          ...contextLines(outcome.pre.context),
          ...contextLines(outcome.post?.context ?? ""),
        ];
    report({
      actor,
      title,
      verdict,
      expected: verdict === expect && !failedCommand,
      lines,
    });
    return outcome;
  };

  const event: GoldenPath["event"] = async (
    title,
    name,
    fields,
    expect,
    show,
  ) => {
    const answer = await claude.event(name, fields);
    const ok = expect(answer);
    report({
      actor: "claude-code",
      title,
      verdict: !ok ? "fail" : answer.decision === "block" ? "block" : "ok",
      expected: ok,
      lines: show
        ? show(answer)
        : contextLines(answer.reason || answer.context),
    });
    return answer;
  };

  const world: GoldenPath = {
    project,
    claude,
    steps,
    path,
    read,
    user,
    agent,
    event,
    bash: (actor, title, command, expect) =>
      agent(actor, title, { tool: "Bash", input: { command } }, expect),
    write: (actor, title, file, content, expect) =>
      agent(
        actor,
        title,
        { tool: "Write", input: { file_path: path(file), content } },
        expect,
      ),
    edit: (actor, title, file, [oldString, newString], expect) =>
      agent(
        actor,
        title,
        {
          tool: "Edit",
          input: {
            file_path: path(file),
            old_string: oldString,
            new_string: newString,
          },
        },
        expect,
      ),
  };
  await user("install playbook into calc", ["init", "--yes"]);
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

/** The session begins: Claude Code starts in the project and the hooks inject where the work stands. */
export async function startSession(
  world: GoldenPath,
  source: "startup" | "compact" | "resume" = "startup",
): Promise<HookAnswer> {
  return world.event(
    `session ${source}: SessionStart`,
    "SessionStart",
    { source, model: "claude-sonnet-4-5" },
    (answer) => answer.context.includes("playbook"),
    (answer) => answer.context.split("\n").slice(0, 4),
  );
}

/** The user asks for the task; with no playbook the prompt is pointed at playbook-init and code edits are refused. */
export async function requestTask(
  world: GoldenPath,
  task: SampleTask,
): Promise<void> {
  await world.event(
    `the user types: "${task.prompt}"`,
    "UserPromptSubmit",
    { prompt: task.prompt, permission_mode: "default" },
    (answer) => answer.context.includes("Skill(playbook-init)"),
  );
  const [first] = task.work["p1.1"] ?? [];
  if (first?.tool === "Write")
    await world.write(
      "agent",
      `the agent starts coding at once: Write ${first.path}`,
      first.path,
      first.content,
      "deny",
    );
}

/** playbook-init hands the task to pm: `playbook new`, the playbook written in full, `playbook lint` clean. */
export async function planTask(
  world: GoldenPath,
  task: SampleTask,
  date: string,
): Promise<void> {
  await world.bash(
    "pm",
    `pm starts the playbook: playbook new ${task.name}`,
    `playbook new ${task.name}`,
    "allow",
  );
  await world.write(
    "pm",
    `pm writes plan/playbook-${task.name}.md from the understanding check`,
    `plan/playbook-${task.name}.md`,
    task.playbook(date),
    "allow",
  );
  await world.bash(
    "pm",
    "pm checks it: playbook lint",
    "playbook lint",
    "allow",
  );
}

/** The review: the main agent may not approve its own plan; the reviewer subagent records its verdict. */
export async function reviewTask(
  world: GoldenPath,
  verdict: "approve" | "reject",
  notes = "The plan is testable and in scope.",
): Promise<ToolOutcome> {
  return world.bash(
    "reviewer",
    `the reviewer ${verdict === "approve" ? "approves" : "rejects"} the plan: playbook review ${verdict}`,
    `playbook review ${verdict} --notes ${shellQuote(notes)}`,
    "allow",
  );
}

/** Before its first change the agent reads CLAUDE.md, state.md and the playbook, then starts phase p1. */
export async function beginWork(
  world: GoldenPath,
  task: SampleTask,
): Promise<void> {
  for (const file of ["CLAUDE.md", "state.md", `plan/playbook-${task.name}.md`])
    await world.agent(
      "agent",
      `the agent reads ${file}`,
      { tool: "Read", input: { file_path: world.path(file) } },
      "allow",
    );
  await world.edit(
    "agent",
    "it sets phase p1 in_progress",
    `plan/playbook-${task.name}.md`,
    ["**status**: pending", "**status**: in_progress"],
    "allow",
  );
}

/** The agent does a subtask's work, one tool call per change. */
export async function doWork(
  world: GoldenPath,
  task: SampleTask,
  subtask: string,
): Promise<void> {
  for (const item of task.work[subtask] ?? [])
    await (item.tool === "Write"
      ? world.write(
          "agent",
          `it writes ${item.path}`,
          item.path,
          item.content,
          "allow",
        )
      : world.edit(
          "agent",
          `it edits ${item.path}`,
          item.path,
          [item.old, item.new],
          "allow",
        ));
}

/** The agent runs the subtask's validations through `playbook verify`, which records the evidence. */
export async function verifySubtask(
  world: GoldenPath,
  subtask: string,
): Promise<ToolOutcome> {
  return world.bash(
    "agent",
    `it proves ${subtask}: playbook verify ${subtask}`,
    `playbook verify ${subtask}`,
    "allow",
  );
}

/** The agent ticks a box in the playbook; `expect` says whether the proof for it exists. */
export async function tick(
  world: GoldenPath,
  task: SampleTask,
  id: string,
  expect: "allow" | "deny",
  title = `it ticks ${id}`,
): Promise<ToolOutcome> {
  return world.edit(
    "agent",
    title,
    `plan/playbook-${task.name}.md`,
    [`- [ ] **${id}**`, `- [x] **${id}**`],
    expect,
  );
}

/** The critic subagent records its verdict on a finished phase. */
export async function critPhase(
  world: GoldenPath,
  phase: string,
  verdict: "PASS" | "FAIL",
  evidence: string,
): Promise<ToolOutcome> {
  return world.bash(
    "critic",
    `the critic judges ${phase}: playbook crit record ${phase} ${verdict}`,
    `playbook crit record ${phase} ${verdict} --evidence ${shellQuote(evidence)}`,
    "allow",
  );
}

/** The agent marks the phase done; `expect` says whether the critic's PASS backs it. */
export async function finishPhase(
  world: GoldenPath,
  task: SampleTask,
  expect: "allow" | "deny",
): Promise<ToolOutcome> {
  return world.edit(
    "agent",
    "it marks phase p1 done",
    `plan/playbook-${task.name}.md`,
    ["**status**: in_progress", "**status**: done"],
    expect,
  );
}

/** The agent ends its turn with work left: the Stop hook keeps it going with the next step. */
export async function stopWithWorkOpen(world: GoldenPath): Promise<HookAnswer> {
  return world.event(
    "the agent ends its turn halfway: Stop",
    "Stop",
    { stop_hook_active: false, last_assistant_message: "p1.1 is done." },
    (answer) => answer.decision === "block" && answer.reason.includes("Next"),
    (answer) => [answer.reason.split(" (continuation")[0] ?? ""],
  );
}

/** After the archive: the lock holds the agent until `playbook post-loop`, which the post-loop skill runs. */
export async function postLoop(world: GoldenPath): Promise<void> {
  await world.write(
    "agent",
    "it keeps coding after the archive: Write src/extra.js",
    "src/extra.js",
    "export {};\n",
    "deny",
  );
  await world.event(
    "the agent stops: Stop",
    "Stop",
    { stop_hook_active: false, last_assistant_message: "The task is merged." },
    (answer) => answer.decision === null,
    () => ["it may stop: the lock is set, nothing more to do on this task"],
  );
  await world.bash(
    "agent",
    "Skill(post-loop) lifts the lock: playbook post-loop",
    "playbook post-loop",
    "allow",
  );
}

/**
 * The whole Golden Path for one task, from the prompt to the lifted lock, as the demo shows it. The archive runs in
 * the PostToolUse hook of the edit that ticks the last box.
 */
export async function runTask(
  world: GoldenPath,
  task: SampleTask,
  date: string,
  options: { demoBlocks?: boolean; onStage?: (title: string) => void } = {},
): Promise<void> {
  const demoBlocks = options.demoBlocks ?? true;
  const stage = options.onStage ?? (() => undefined);
  stage("1. The request: no playbook yet, so no code");
  await requestTask(world, task);
  stage("2-3. Plan: playbook-init hands the task to pm");
  await planTask(world, task, date);
  stage("4. Review: only the reviewer's verdict counts");
  if (demoBlocks) {
    await world.bash(
      "agent",
      "the main agent approves its own plan: playbook review approve",
      "playbook review approve",
      "deny",
    );
  }
  await reviewTask(world, "approve");
  stage("5. Work with proof: every tick needs a current record");
  await beginWork(world, task);
  await doWork(world, task, "p1.1");
  if (demoBlocks)
    await tick(
      world,
      task,
      "p1.1",
      "deny",
      "it ticks p1.1 without proof (a forged checkbox)",
    );
  await verifySubtask(world, "p1.1");
  await tick(world, task, "p1.1", "allow");
  if (demoBlocks) await stopWithWorkOpen(world);
  await doWork(world, task, "p1.2");
  await verifySubtask(world, "p1.2");
  await tick(world, task, "p1.2", "allow");
  stage("6. Critic: a phase is done only with the critic's PASS");
  if (demoBlocks) await finishPhase(world, task, "deny");
  await critPhase(
    world,
    "p1",
    "PASS",
    "npm test passes; README and CHANGELOG list the function",
  );
  await finishPhase(world, task, "allow");
  stage("7. Archive: ticking the last box hands the work over");
  await tick(
    world,
    task,
    "ft1",
    "allow",
    "it ticks the last box, ft1: the archive starts",
  );
  stage("8. Post-loop: the lock holds until the next task is picked");
  await postLoop(world);
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The block reason as the model reads it, without the kill-switch sentence every block ends with: what, then `Next:`. */
function splitReason(reason: string): string[] {
  const kill = reason.indexOf(" Kill switch:");
  const text = (kill > 0 ? reason.slice(0, kill) : reason)
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

function lastLines(text: string, count: number): string[] {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(-count);
}

function runNode(
  args: string[],
  cwd: string,
  overrides: Record<string, string | undefined>,
): Promise<TerminalResult> {
  const env = withoutSessionVariables(process.env);
  for (const [name, value] of Object.entries(overrides))
    if (value === undefined) delete env[name];
    else env[name] = value;
  return spawnText(process.execPath, args, {
    cwd,
    env,
    input: "",
    timeoutMs: 120_000,
  });
}
