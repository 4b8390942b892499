import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../src/core/guards/events.ts";
import { createGuardedRepo, PLAYBOOK } from "../helpers/guarded-repo.ts";
import { CLI_BUNDLE } from "../helpers/run-cli.ts";

/** Payloads shaped like the ones Claude Code sends (hooks reference), one per event. */
const PAYLOADS: Record<string, Record<string, unknown>> = {
  SessionStart: { source: "startup", model: "claude-opus" },
  UserPromptSubmit: {
    prompt: "add a logout button",
    permission_mode: "default",
  },
  PreToolUse: {
    tool_name: "Read",
    tool_input: { file_path: "README.md" },
    tool_use_id: "toolu_1",
  },
  PostToolUse: {
    tool_name: "Edit",
    tool_input: { file_path: "src/app.ts", old_string: "1", new_string: "2" },
    tool_response: { filePath: "src/app.ts" },
    tool_use_id: "toolu_1",
  },
  PostToolUseFailure: {
    tool_name: "Bash",
    tool_input: { command: "npm test" },
    error: "Exit code 1",
    tool_use_id: "toolu_1",
  },
  Stop: { stop_hook_active: false, last_assistant_message: "Done." },
  SubagentStop: {
    stop_hook_active: false,
    agent_id: "a1",
    agent_type: "Explore",
    agent_transcript_path: "/tmp/a.jsonl",
    last_assistant_message: "Found it.",
  },
  PreCompact: { trigger: "auto", custom_instructions: "" },
  SessionEnd: { reason: "prompt_input_exit" },
};

describe("every event answers", () => {
  it.each(HOOK_EVENTS)(
    "%s: exit 0 and at most one JSON object, with unknown fields tolerated",
    (event) => {
      const repo = createGuardedRepo();
      const reply = repo.hook(event, {
        ...PAYLOADS[event],
        some_future_field: { nested: true },
      });
      expect(reply.status).toBe(0);
      expect(reply.stderr).toBe("");
      // The reviewed sample playbook has open work, so Stop continues the turn (the continuation loop).
      expect(reply.decision).toBe(event === "Stop" ? "block" : null);
      if (reply.raw !== "")
        expect(reply.raw.trim().split("\n")).toHaveLength(1);
    },
  );

  it("`playbook hook <Event>` answers exactly like the bundle", () => {
    const repo = createGuardedRepo({ branch: "main" });
    const payload = {
      session_id: "s",
      cwd: repo.dir,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: repo.path("src/x.ts"), content: "x" },
    };
    const viaCli = execFileSync(
      process.execPath,
      [CLI_BUNDLE, "hook", "PreToolUse"],
      {
        input: JSON.stringify(payload),
        encoding: "utf8",
        env: { ...process.env, CLAUDE_PROJECT_DIR: repo.dir },
      },
    );
    const viaBundle = repo.hook("PreToolUse", payload).raw;
    expect(viaCli).toBe(viaBundle);
    expect(viaCli).toContain('"permissionDecision":"deny"');
  });

  it("treats the legacy Task tool name as Agent", () => {
    const repo = createGuardedRepo();
    const reply = repo.pre("Task", {
      description: "x",
      prompt: "y",
      subagent_type: "critic",
    });
    expect(reply.decision).toBeNull();
    expect(reply.notice).toBe("");
  });

  it("reports coherence problems at session start", () => {
    const repo = createGuardedRepo({ branch: "other" });
    const reply = repo.hook("SessionStart", { source: "startup" });
    expect(reply.context).toContain(
      "state.md says branch `feat/login-form` but git is on `other`",
    );
  });

  it("names a misspelt key of .claude/playbook.json at session start, with the key it meant (from the hook's string-distance bundle)", () => {
    const repo = createGuardedRepo({
      files: { ".claude/playbook.json": '{ "archiv": {} }\n' },
    });
    const reply = repo.hook("SessionStart", { source: "startup" });
    expect(reply.context).toContain("Unexpected key `archiv`, expected one of");
    expect(reply.context).toContain("Did you mean `archive`?");
  });
});

describe("PostToolUse", () => {
  it("tells the model about errors an edit left in the playbook, with file and line, and refreshes the cache", () => {
    const repo = createGuardedRepo();
    repo.write(
      PLAYBOOK,
      repo.read(PLAYBOOK).replace("depends_on: [p1.1]", "depends_on: [p9.9]"),
    );
    const reply = repo.hook("PostToolUse", {
      tool_name: "Edit",
      tool_input: {
        file_path: repo.path(PLAYBOOK),
        old_string: "a",
        new_string: "b",
      },
      tool_response: {},
    });
    expect(reply.context).toMatch(
      /playbook lint after this edit: plan\/playbook-login-form\.md:\d+:\d+ .*p9\.9/,
    );
    expect(readdirSync(repo.path(".claude/playbook/cache"))).toContain(
      "plan__playbook-login-form.md.json",
    );
  });

  it("says nothing after a clean edit", () => {
    const repo = createGuardedRepo();
    const reply = repo.hook("PostToolUse", {
      tool_name: "Edit",
      tool_input: {
        file_path: repo.path("state.md"),
        old_string: "a",
        new_string: "b",
      },
      tool_response: {},
    });
    expect(reply.raw).toBe("");
  });
});

describe("SubagentStop of the critic", () => {
  const verdict = (body: string) =>
    `I ran the tests.\n\n\`\`\`verdict\n${body}\n\`\`\`\n`;

  it("records the verdict block as a critic record for the phase as it is now", () => {
    const repo = createGuardedRepo();
    const reply = repo.hook("SubagentStop", {
      agent_type: "critic",
      agent_id: "c1",
      stop_hook_active: false,
      last_assistant_message: verdict(
        "phase: p1\nverdict: PASS\nevidence: npx vitest run passed (12 tests)",
      ),
    });
    expect(reply.decision).toBeNull();
    expect(reply.notice).toContain("recorded the critic's PASS for p1");
    const record = JSON.parse(
      readFileSync(
        join(
          repo.dir,
          ".claude/playbook/records/plan__playbook-login-form.md/critic.p1.json",
        ),
        "utf8",
      ),
    ) as Record<string, unknown>;
    expect(record).toMatchObject({
      kind: "critic",
      target: "p1",
      verdict: "PASS",
      by: "critic",
      detail: { evidence: "npx vitest run passed (12 tests)" },
    });
  });

  it("sends the critic back once when the block is missing a field, never while stop_hook_active", () => {
    const repo = createGuardedRepo();
    const first = repo.hook("SubagentStop", {
      agent_type: "critic",
      agent_id: "a1f3c9",
      stop_hook_active: false,
      last_assistant_message: verdict("verdict: PASS"),
    });
    expect(first.decision).toBe("block");
    expect(first.reason).toContain("phase");
    const again = repo.hook("SubagentStop", {
      agent_type: "critic",
      agent_id: "a1f3c9",
      stop_hook_active: true,
      last_assistant_message: verdict("verdict: PASS"),
    });
    expect(again.decision).toBeNull();
    expect(again.notice).toContain("not recorded");
  });

  it("refuses a verdict for a phase the playbook does not have", () => {
    const repo = createGuardedRepo();
    const reply = repo.hook("SubagentStop", {
      agent_type: "critic",
      agent_id: "a1f3c9",
      stop_hook_active: false,
      last_assistant_message: verdict("phase: p7\nverdict: PASS\nevidence: x"),
    });
    expect(reply.decision).toBe("block");
    expect(reply.reason).toContain("p7");
  });

  it("ignores other subagents, even with a verdict block", () => {
    const repo = createGuardedRepo();
    const reply = repo.hook("SubagentStop", {
      agent_type: "general-purpose",
      agent_id: "a1f3c9",
      stop_hook_active: false,
      last_assistant_message: verdict("phase: p1\nverdict: PASS\nevidence: x"),
    });
    expect(reply.raw).toBe("");
  });
});
