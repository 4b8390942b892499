import { describe, expect, it } from "vitest";
import {
  findFailOpenEvents,
  HOOK_EVENTS,
} from "../../../../src/core/scaffold/hook-settings.ts";
import {
  planSettingsMerge,
  planSettingsRemoval,
} from "../../../../src/core/scaffold/merge-settings.ts";

const HOOK = "${CLAUDE_PROJECT_DIR}/node_modules/playbook-kit/dist/hook.cjs";

function merged(text: string | null, path = HOOK, known: string[] = []) {
  const result = planSettingsMerge(text, path, known);
  if (!result.ok) throw new Error(result.problem);
  return result;
}

const handlersOf = (text: string, event: string) =>
  (
    (JSON.parse(text) as { hooks: Record<string, { hooks: unknown[] }[]> })
      .hooks[event] ?? []
  ).flatMap((g) => g.hooks);

const USER_SETTINGS = `{
  // the team's permissions
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./audit.sh" }] }
    ]
  },
  "statusLine": { "type": "command", "command": "~/.claude/line.sh" }
}
`;

describe("planSettingsMerge", () => {
  it("upgrades a PreToolUse handler of an earlier init to block when the hook fails, and reports the old one as failing open", () => {
    const old = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: "command",
                command: "node",
                args: [HOOK, "PreToolUse"],
                timeout: 10,
              },
            ],
          },
        ],
      },
    });
    expect(findFailOpenEvents(JSON.parse(old), [HOOK])).toEqual(["PreToolUse"]);
    const { text } = merged(old);
    expect(handlersOf(text, "PreToolUse")).toEqual([
      {
        type: "command",
        command: "node",
        args: [HOOK, "PreToolUse"],
        timeout: 10,
        onFailure: "block",
      },
    ]);
    expect(findFailOpenEvents(JSON.parse(text), [HOOK])).toEqual([]);
  });

  it("wires every event once, in exec form with a timeout in seconds, and sets the status line", () => {
    const { text, changed } = merged(null);
    expect(changed).toBe(true);
    const json = JSON.parse(text) as {
      hooks: Record<string, unknown>;
      statusLine: { command: string };
    };
    expect(Object.keys(json.hooks)).toEqual(HOOK_EVENTS.map((e) => e.event));
    expect(handlersOf(text, "PreToolUse")).toEqual([
      {
        type: "command",
        command: "node",
        args: [HOOK, "PreToolUse"],
        timeout: 10,
        onFailure: "block",
      },
    ]);
    expect(json.statusLine.command).toBe(
      'node "$CLAUDE_PROJECT_DIR/node_modules/playbook-kit/dist/hook.cjs" statusline',
    );
  });

  it("keeps the user's hooks, keys, comments and status line, and says so", () => {
    const { text, notes } = merged(USER_SETTINGS);
    expect(text).toContain("// the team's permissions");
    expect(text.indexOf('"permissions"')).toBeLessThan(text.indexOf('"hooks"'));
    const pre = handlersOf(text.replace(/\/\/.*$/m, ""), "PreToolUse");
    expect(pre[0]).toEqual({ type: "command", command: "./audit.sh" });
    expect(pre).toHaveLength(2);
    expect(text).toContain("~/.claude/line.sh");
    expect(notes[0]).toMatch(/^kept your statusLine/);
  });

  it("leaves the user's own hook entries byte for byte, in a one-line or a multi-line array", () => {
    const entry =
      '{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./audit.sh" }] }';
    const { text } = merged(USER_SETTINGS);
    expect(text).toContain(`      ${entry},\n`);
    const oneLine = `{\n  "hooks": {\n    "PreToolUse": [${entry}]\n  }\n}\n`;
    const inline = merged(oneLine).text;
    expect(inline).toContain(`[${entry}, {`);
    expect(handlersOf(inline, "PreToolUse")).toHaveLength(2);
    expect(merged(inline).changed).toBe(false);
  });

  it.each([
    ["the team's settings", USER_SETTINGS],
    [
      "a one-line hooks array",
      '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "./done.sh" }] }]\n  }\n}\n',
    ],
    [
      "comments after keys",
      '{\n  "model": "opus", // mine\n  "env": { "A": "1" } // also mine\n}\n',
    ],
    ["tab indentation", '{\n\t"model": "opus"\n}\n'],
    ["CRLF line ends", '{\r\n  "model": "opus"\r\n}\r\n'],
  ])("merge then removal gives back %s byte for byte", (_name, text) => {
    const added = merged(text).text;
    const removed = planSettingsRemoval(added, [HOOK]);
    expect(removed).toMatchObject({ ok: true, text });
  });

  it("keeps a comment after the user's last key on that key's line", () => {
    const { text } = merged('{\n  "model": "opus" // my model\n}\n');
    expect(text).toContain('  "model": "opus", // my model\n  "hooks": {');
    expect(planSettingsRemoval(text, [HOOK])).toMatchObject({
      ok: true,
      text: '{\n  "model": "opus" // my model\n}\n',
    });
  });

  it("never duplicates its hooks, however often it runs", () => {
    const once = merged(USER_SETTINGS).text;
    const twice = merged(once);
    const thrice = merged(twice.text);
    expect(twice.changed).toBe(false);
    expect(thrice.text).toBe(once);
    for (const { event } of HOOK_EVENTS)
      expect(
        handlersOf(once.replace(/\/\/.*$/m, ""), event).filter((h) =>
          JSON.stringify(h).includes("playbook-kit"),
        ),
      ).toHaveLength(1);
  });

  it("replaces its handler when the bundle moved, and drops events it no longer answers", () => {
    const old = merged(
      null,
      "/usr/lib/node_modules/playbook-kit/dist/hook.cjs",
    ).text;
    const withExtra = old.replace(
      '"hooks": {',
      '"hooks": {\n    "Notification": [{ "hooks": [{ "type": "command", "command": "node /usr/lib/node_modules/playbook-kit/dist/hook.cjs Notification" }] }],',
    );
    const { text } = merged(withExtra);
    expect(text).not.toContain("/usr/lib/node_modules");
    expect(text).not.toContain("Notification");
    expect(handlersOf(text, "Stop")).toEqual([
      { type: "command", command: "node", args: [HOOK, "Stop"], timeout: 10 },
    ]);
  });

  it("recognises a checkout's bundle only through the paths earlier inits recorded", () => {
    const dev = "/home/me/playbook/dist/hook.cjs";
    const first = merged(null, dev).text;
    expect(merged(first, HOOK, []).text).toContain(dev);
    expect(merged(first, HOOK, [dev]).text).not.toContain(dev);
  });

  it.each([
    ['{ "hooks": [', 1, "not valid JSON"],
    ["[]", 1, "not a JSON object"],
    ['{\n  "hooks": { "Stop": {} }\n}', 2, '"hooks.Stop" is not a list'],
  ])("refuses broken settings with the line: %s", (text, line, problem) => {
    const result = planSettingsMerge(text, HOOK, []);
    expect(result).toMatchObject({ ok: false, line });
    if (!result.ok) expect(result.problem).toContain(problem);
  });
});

describe("planSettingsRemoval", () => {
  it("takes out exactly what the merge added, leaving the user's settings as they were", () => {
    const added = merged(USER_SETTINGS).text;
    const removed = planSettingsRemoval(added, [HOOK]);
    expect(removed.ok).toBe(true);
    if (!removed.ok) return;
    expect(JSON.parse(removed.text.replace(/\/\/.*$/m, ""))).toEqual(
      JSON.parse(USER_SETTINGS.replace(/\/\/.*$/m, "")),
    );
    expect(removed.text).toContain("// the team's permissions");
  });

  it("leaves an empty object when the settings were all playbook's", () => {
    const removed = planSettingsRemoval(merged(null).text, [HOOK]);
    expect(removed.ok && JSON.parse(removed.text)).toEqual({});
  });
});

/** The hook events Claude Code documents for command handlers, in its hooks reference. */
const DOCUMENTED_EVENTS = new Set([
  "SessionStart",
  "Setup",
  "InstructionsLoaded",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "MessageDisplay",
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "TaskCreated",
  "TaskCompleted",
  "Stop",
  "StopFailure",
  "TeammateIdle",
  "ConfigChange",
  "CwdChanged",
  "DirectoryAdded",
  "FileChanged",
  "WorktreeCreate",
  "WorktreeRemove",
  "PreCompact",
  "PostCompact",
  "Elicitation",
  "ElicitationResult",
  "SessionEnd",
]);
const HANDLER_KEYS = new Set([
  "type",
  "command",
  "args",
  "async",
  "asyncRewake",
  "shell",
  "if",
  "timeout",
  "statusMessage",
  "once",
  "onFailure",
]);

function schemaProblems(settings: unknown): string[] {
  const problems: string[] = [];
  const hooks = (settings as { hooks?: unknown }).hooks;
  if (typeof hooks !== "object" || hooks === null)
    return ["hooks is not an object"];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!DOCUMENTED_EVENTS.has(event)) problems.push(`${event}: not an event`);
    if (!Array.isArray(groups)) {
      problems.push(`${event}: not a list`);
      continue;
    }
    for (const group of groups as Record<string, unknown>[]) {
      const keys = Object.keys(group).filter(
        (k) => k !== "matcher" && k !== "hooks",
      );
      if (keys.length > 0)
        problems.push(`${event}: group has ${keys.join(", ")}`);
      if (
        group["matcher"] !== undefined &&
        typeof group["matcher"] !== "string"
      )
        problems.push(`${event}: matcher is not a string`);
      for (const handler of (group["hooks"] ?? []) as Record<
        string,
        unknown
      >[]) {
        for (const key of Object.keys(handler))
          if (!HANDLER_KEYS.has(key))
            problems.push(`${event}: handler key ${key}`);
        if (handler["type"] !== "command")
          problems.push(`${event}: type is not command`);
        if (typeof handler["command"] !== "string")
          problems.push(`${event}: no command`);
        const args = handler["args"];
        if (
          args !== undefined &&
          !(Array.isArray(args) && args.every((a) => typeof a === "string"))
        )
          problems.push(`${event}: args are not strings`);
        const timeout = handler["timeout"];
        if (
          timeout !== undefined &&
          !(
            Number.isInteger(timeout) &&
            (timeout as number) > 0 &&
            (timeout as number) <= 600
          )
        )
          problems.push(
            `${event}: timeout ${JSON.stringify(timeout)} is not seconds`,
          );
      }
    }
  }
  return problems;
}

describe("the settings init writes", () => {
  it("follow Claude Code's hooks schema, alone and merged into the user's", () => {
    for (const start of [null, USER_SETTINGS]) {
      const { text } = merged(start);
      expect(
        schemaProblems(JSON.parse(text.replace(/^\s*\/\/.*$/gm, ""))),
      ).toEqual([]);
    }
  });

  it("the schema check itself catches a timeout in milliseconds and an unknown event", () => {
    expect(
      schemaProblems({
        hooks: {
          PreToolUse: [
            { hooks: [{ type: "command", command: "x", timeout: 5000 }] },
          ],
          preToolUse: [],
        },
      }),
    ).toEqual([
      "PreToolUse: timeout 5000 is not seconds",
      "preToolUse: not an event",
    ]);
  });
});
