// `npm run demo`: the main job on the embedded default. Copies plan/template/ into a temporary project, makes the
// first example of plan/template/playbook-examples.md its active playbook, then runs the built CLI on it.
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const root = join(import.meta.dirname, "..");
const require = createRequire(import.meta.url);
const { parsePlaybook, setStateField } = require(
  join(root, "dist", "parser.cjs"),
);
const cli = join(root, "dist", "cli.mjs");

const project = mkdtempSync(join(tmpdir(), "playbook-demo-"));
const keep = process.argv.includes("--keep");
try {
  cpSync(join(root, "plan", "template"), join(project, "plan", "template"), {
    recursive: true,
  });
  const examples = readFileSync(
    join(project, "plan", "template", "playbook-examples.md"),
    "utf8",
  );
  const example = /^~~~markdown\r?\n([\s\S]*?)^~~~\s*$/m.exec(examples)?.[1];
  if (!example)
    throw new Error(
      "plan/template/playbook-examples.md has no ~~~markdown example block",
    );
  const playbook = parsePlaybook(example, "example.md").value;
  const name = playbook.meta.project ?? "example";
  const active = `plan/playbook-${name}.md`;
  writeFileSync(join(project, active), example);

  let state = readFileSync(
    join(project, "plan", "template", "state-initial.md"),
    "utf8",
  );
  for (const [section, key, value] of [
    ["playbook", "active", active],
    ["playbook", "branch", playbook.meta.branch],
    ["goal", "phase", playbook.phases[0]?.id ?? null],
    ["goal", "status", "in_progress"],
  ]) {
    const result = setStateField(state, section, key, value);
    if (!result.ok) throw new Error(result.reason);
    state = result.text;
  }
  writeFileSync(join(project, "state.md"), state);

  const run = (title, args) => {
    process.stdout.write(
      `\n\u001b[1m$ playbook ${args.join(" ")}\u001b[0m   # ${title}\n`,
    );
    const result = spawnSync(
      process.execPath,
      [cli, ...args, "--cwd", project],
      { stdio: "inherit" },
    );
    return result.status ?? 1;
  };
  process.stdout.write(
    `Demo project: ${project}\n(state.md from plan/template/state-initial.md, ${active} from playbook-examples.md)\n`,
  );
  const lint = run("check state.md and every playbook", ["lint"]);
  run("where the work stands", ["status"]);
  const guards =
    lint === 0
      ? replayGuards(project, active, playbook) || replaySession(project)
      : 1;
  process.stdout.write(
    lint !== 0
      ? "\nThe example playbook has lint errors (see above).\n"
      : guards === 0
        ? "\nThe example playbook is valid and every guard answered as expected. Run `npm run demo -- --keep` to keep the project and try edits on it.\n"
        : "\nA guard answered differently than expected (see above).\n",
  );
  process.exitCode = lint || guards;
} finally {
  if (keep) process.stdout.write(`Kept ${project}\n`);
  else rmSync(project, { recursive: true, force: true });
}

/**
 * Replays tool calls of a Claude Code session through the real hook bundle, as Claude Code sends them, and prints
 * each verdict: the guards refuse unreviewed work and forged proof, and leave the repair path open.
 */
function replayGuards(project, active, playbook) {
  const git = (...args) =>
    spawnSync(
      "git",
      ["-c", "user.name=demo", "-c", "user.email=demo@example.com", ...args],
      { cwd: project, stdio: "ignore" },
    );
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "start");
  git("switch", "-q", "-c", playbook.meta.branch ?? "feat/demo");
  process.stdout.write(
    "\n\u001b[1mGuards\u001b[0m   # tool calls replayed through dist/hook.cjs, as Claude Code sends them\n",
  );
  const hook = join(root, "dist", "hook.cjs");
  const call = (tool, input, extra = {}) => {
    const payload = {
      session_id: "demo",
      transcript_path: "/dev/null",
      cwd: project,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: tool,
      tool_input: input,
      tool_use_id: "toolu_demo",
      ...extra,
    };
    const out = spawnSync(process.execPath, [hook, "PreToolUse"], {
      input: JSON.stringify(payload),
      encoding: "utf8",
      env: { ...process.env, CLAUDE_PROJECT_DIR: project },
    });
    const reply = out.stdout.trim() === "" ? {} : JSON.parse(out.stdout);
    const reason = reply.hookSpecificOutput?.permissionDecisionReason;
    return reason === undefined
      ? { allowed: true }
      : { allowed: false, reason };
  };
  const file = (rel) => join(project, rel);
  const open = /^- \[ \] \*\*(\S+?)\*\*/m.exec(
    readFileSync(file(active), "utf8"),
  );
  const tick = open ? open[0] : "- [ ]";
  const steps = [
    [
      "the agent writes code before the plan is reviewed",
      () =>
        call("Write", {
          file_path: file("src/app.ts"),
          content: "export {};\n",
        }),
      false,
    ],
    [
      "it types `reviewed: true` into the playbook",
      () =>
        call("Edit", {
          file_path: file(active),
          old_string: "reviewed: false",
          new_string: "reviewed: true",
        }),
      false,
    ],
    [
      "it runs `playbook review approve` itself",
      () => call("Bash", { command: "playbook review approve" }),
      false,
    ],
    [
      "the reviewer subagent runs `playbook review approve`",
      () =>
        call(
          "Bash",
          { command: "playbook review approve" },
          { agent_type: "reviewer" },
        ),
      true,
    ],
  ];
  let failures = 0;
  const show = ([title, act, expected]) => {
    const verdict = act();
    const ok = verdict.allowed === expected;
    if (!ok) failures++;
    const mark = verdict.allowed
      ? "\u001b[32mallow\u001b[0m"
      : "\u001b[31mdeny \u001b[0m";
    const why = verdict.allowed
      ? ""
      : `  ${verdict.reason.split(" Next: ")[0]}`;
    process.stdout.write(
      `  ${mark} ${title}${ok ? "" : "  (unexpected)"}\n${why ? `        ${why}\n` : ""}`,
    );
  };
  steps.forEach(show);
  // The CLI uses up the grant the hook just wrote for the reviewer (the agent's shell sets CLAUDECODE=1).
  const review = spawnSync(
    process.execPath,
    [cli, "review", "approve", "--cwd", project],
    { encoding: "utf8", env: { ...process.env, CLAUDECODE: "1" } },
  );
  process.stdout.write(
    `        ${review.stdout.trim().split("\n")[0] ?? ""}\n`,
  );
  if (review.status !== 0) failures++;
  [
    [
      "the session reads state.md",
      () => call("Read", { file_path: file("state.md") }),
      true,
    ],
    ["and the playbook", () => call("Read", { file_path: file(active) }), true],
    [
      "now it writes code on the playbook's branch",
      () =>
        call("Write", {
          file_path: file("src/app.ts"),
          content: "export {};\n",
        }),
      true,
    ],
    [
      `it ticks ${open?.[1] ?? "a subtask"} without running its validations`,
      () =>
        call("Edit", {
          file_path: file(active),
          old_string: tick,
          new_string: tick.replace("[ ]", "[x]"),
        }),
      false,
    ],
    [
      "it tries the same with `sed -i`",
      () => call("Bash", { command: `sed -i 's/- \\[ \\]/- [x]/' ${active}` }),
      false,
    ],
    [
      "it force-pushes main",
      () => call("Bash", { command: "git push --force origin main" }),
      false,
    ],
    [
      "state.md stays editable (the repair path)",
      () =>
        call("Edit", {
          file_path: file("state.md"),
          old_string: "status: in_progress",
          new_string: "status: in_progress",
        }),
      true,
    ],
  ].forEach(show);
  return failures === 0 ? 0 : 1;
}

/**
 * Replays the session events through the real hook bundle: the summary a session starts with, the status line a
 * prompt gets, a stop refused with the next step while the reviewed playbook has work, and the promise that lets the
 * agent stop; then the Claude Code status line.
 */
function replaySession(project) {
  const hook = join(root, "dist", "hook.cjs");
  const send = (event, extra) => {
    const out = spawnSync(process.execPath, [hook, event], {
      input: JSON.stringify({
        session_id: "demo",
        transcript_path: "/dev/null",
        cwd: project,
        hook_event_name: event,
        ...extra,
      }),
      encoding: "utf8",
      env: { ...process.env, CLAUDE_PROJECT_DIR: project, NO_COLOR: "1" },
    });
    return out.stdout.trim() === "" ? {} : JSON.parse(out.stdout);
  };
  process.stdout.write(
    "\n\u001b[1mSession\u001b[0m   # session events replayed through dist/hook.cjs\n",
  );
  let failures = 0;
  const check = (title, ok, lines) => {
    if (!ok) failures++;
    process.stdout.write(
      `  ${ok ? "\u001b[32m ok \u001b[0m" : "\u001b[31mFAIL\u001b[0m"} ${title}\n${lines.map((l) => `        ${l}\n`).join("")}`,
    );
  };
  const start = send("SessionStart", { source: "startup" });
  const summary = start.hookSpecificOutput?.additionalContext ?? "";
  check(
    `SessionStart injects a ${Buffer.byteLength(summary)}-byte summary`,
    summary.includes("Next:"),
    summary.split("\n").slice(0, 3),
  );
  const prompt = send("UserPromptSubmit", {
    prompt: "implement the login form",
  });
  const status = prompt.hookSpecificOutput?.additionalContext ?? "";
  check("a prompt gets one status line", status.startsWith("playbook:"), [
    status,
  ]);
  const stop = send("Stop", {
    stop_hook_active: false,
    last_assistant_message: "I created the file.",
  });
  check(
    "the agent stops with work open: the turn goes on with the next step",
    stop.decision === "block",
    [(stop.reason ?? "").split(" (continuation")[0]],
  );
  const done = send("Stop", {
    stop_hook_active: true,
    last_assistant_message:
      "I need the design file from you.\n<promise>DONE</promise>",
  });
  check(
    "it says it needs the user (<promise>DONE</promise>): it may stop",
    done.decision === undefined,
    [],
  );
  const line = spawnSync(process.execPath, [hook, "statusline"], {
    input: JSON.stringify({ session_id: "demo", cwd: project }),
    encoding: "utf8",
    env: { ...process.env, CLAUDE_PROJECT_DIR: project, NO_COLOR: "1" },
  }).stdout.trim();
  check("the status line", line.includes("│"), [line]);
  return failures === 0 ? 0 : 1;
}
