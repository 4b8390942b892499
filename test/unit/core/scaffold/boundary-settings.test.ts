import { parse } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import type { BoundaryRecord } from "../../../../src/core/scaffold/boundary-settings.ts";
import {
  planBoundaryMerge,
  planLocalBoundaryMerge,
  planSettingsMerge,
  planSettingsRemoval,
} from "../../../../src/core/scaffold/merge-settings.ts";
import type { SecurityMode } from "../../../../src/core/model/state.ts";

const LOADER = "${CLAUDE_PROJECT_DIR}/.claude/hooks/playbook.cjs";

interface Settings {
  sandbox?: {
    enabled?: boolean;
    failIfUnavailable?: boolean;
    allowUnsandboxedCommands?: boolean;
    filesystem?: { denyWrite?: string[] };
  };
  permissions?: { allow?: string[]; deny?: string[] };
  model?: string;
}

function install(
  text: string | null,
  mode: SecurityMode = "strict",
  prior?: BoundaryRecord,
) {
  const result = planSettingsMerge(text, LOADER, [], { mode, prior });
  if (!result.ok) throw new Error(result.problem);
  return {
    ...result,
    json: parse(result.text) as Settings,
    record: result.boundary!,
  };
}

const USER = `{
  // the team's own rules
  "permissions": { "allow": ["Bash(npm test)"], "deny": ["Read(./.env)"] },
  "sandbox": { "filesystem": { "denyWrite": ["secrets/"] } },
  "model": "opus"
}
`;

describe("the trust boundary in settings.json", () => {
  it("turns the sandbox on with no way out, makes the trust paths read-only and denies them to the file tools", () => {
    const { json } = install(null);
    expect(json.sandbox).toMatchObject({
      enabled: true,
      failIfUnavailable: true,
      allowUnsandboxedCommands: false,
    });
    expect(json.sandbox?.filesystem?.denyWrite).toEqual(
      expect.arrayContaining([
        ".claude/playbook",
        ".claude/playbook.json",
        ".claude/agents",
        ".claude/hooks/playbook.cjs",
        "node_modules/playbook-kit",
        "node_modules/.bin/playbook",
      ]),
    );
    expect(json.permissions?.deny).toEqual(
      expect.arrayContaining([
        "Edit(/.claude/playbook/**)",
        "Edit(/.claude/playbook.json)",
        "Edit(/.claude/settings.json)",
        "Edit(/.claude/settings.local.json)",
        "Edit(/node_modules/playbook-kit/**)",
      ]),
    );
  });

  it("keeps the user's own rules, comments and keys, and adds its entries once however often init runs", () => {
    const first = install(USER);
    expect(first.text).toContain("// the team's own rules");
    expect(first.json.model).toBe("opus");
    expect(first.json.permissions?.allow).toEqual(["Bash(npm test)"]);
    expect(first.json.permissions?.deny?.[0]).toBe("Read(./.env)");
    expect(first.json.sandbox?.filesystem?.denyWrite?.[0]).toBe("secrets/");
    const second = install(first.text, "strict", first.record);
    expect(second.changed).toBe(false);
    expect(second.text).toBe(first.text);
  });

  it("replaces a user's switch that would let the agent out, and says so", () => {
    const { json, notes } = install(
      '{ "sandbox": { "enabled": false, "allowUnsandboxedCommands": true } }\n',
    );
    expect(json.sandbox?.enabled).toBe(true);
    expect(json.sandbox?.allowUnsandboxedCommands).toBe(false);
    expect(notes.join("\n")).toContain("sandbox.enabled");
    expect(notes.join("\n")).toContain("sandbox.allowUnsandboxedCommands");
  });

  it("lets a weaker mode start without a sandbox, while the escape hatch stays shut", () => {
    const strict = install(null);
    const developer = install(strict.text, "developer", strict.record);
    expect(developer.json.sandbox?.failIfUnavailable).toBeUndefined();
    expect(developer.json.sandbox?.enabled).toBe(true);
    expect(developer.json.sandbox?.allowUnsandboxedCommands).toBe(false);
    // A user's own choice stays theirs.
    const own = install(
      '{ "sandbox": { "failIfUnavailable": true } }\n',
      "developer",
    );
    expect(own.json.sandbox?.failIfUnavailable).toBe(true);
  });

  it("uninstall takes out exactly what init added, keeping what the user had", () => {
    const { text, record } = install(USER);
    const removed = planSettingsRemoval(text, [LOADER], record);
    if (!removed.ok) throw new Error(removed.problem);
    const json = parse(removed.text) as Settings & { hooks?: unknown };
    expect(json).toEqual({
      permissions: { allow: ["Bash(npm test)"], deny: ["Read(./.env)"] },
      sandbox: { filesystem: { denyWrite: ["secrets/"] } },
      model: "opus",
    });
    expect(removed.text).toContain("// the team's own rules");
  });

  it("an entry the user wrote before init stays on uninstall", () => {
    const { text, record } = install(
      '{ "sandbox": { "filesystem": { "denyWrite": [".claude/agents"] } } }\n',
    );
    expect(record.denyWrite).not.toContain(".claude/agents");
    const removed = planSettingsRemoval(text, [LOADER], record);
    if (!removed.ok) throw new Error(removed.problem);
    expect(
      (parse(removed.text) as Settings).sandbox?.filesystem?.denyWrite,
    ).toEqual([".claude/agents"]);
  });

  it("the plugin route gets the boundary without hooks", () => {
    const result = planBoundaryMerge('{ "model": "opus" }\n', {
      mode: "strict",
      prior: undefined,
    });
    if (!result.ok) throw new Error(result.problem);
    const json = parse(result.text) as Settings & { hooks?: unknown };
    expect(json.hooks).toBeUndefined();
    expect(json.sandbox?.enabled).toBe(true);
  });

  it.each([
    ['{ "sandbox": true }', '"sandbox" is not an object'],
    [
      '{ "sandbox": { "filesystem": { "denyWrite": ".claude" } } }',
      '"sandbox.filesystem.denyWrite" is not a list',
    ],
    [
      '{ "permissions": { "deny": "Edit" } }',
      '"permissions.deny" is not a list',
    ],
  ])("refuses %s with the line and the problem", (text, problem) => {
    const result = planSettingsMerge(text, LOADER, [], {
      mode: "strict",
      prior: undefined,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem).toBe(problem);
      expect(result.line).toBe(1);
    }
  });
});

describe("settings.local.json: the hook's derived lists", () => {
  const wanted = (p: string[], ro: string[]) => ({
    protected: { denyWrite: p, deny: p.map((x) => `Edit(/${x})`) },
    readOnly: { denyWrite: ro },
  });
  it("adds both lists beside the user's own entries, and takes out exactly what it added", () => {
    const user = `{\n  "permissions": { "allow": ["Bash(ls)"], "deny": ["Edit(/mine)"] },\n  "sandbox": { "filesystem": { "denyWrite": ["mine"] } }\n}\n`;
    const first = planLocalBoundaryMerge(
      user,
      wanted(["deploy/k"], ["."]),
      undefined,
    );
    if (!first.ok) throw new Error(first.problem);
    const json = JSON.parse(first.text) as {
      sandbox: { filesystem: { denyWrite: string[] } };
      permissions: { deny: string[] };
    };
    expect(json.sandbox.filesystem.denyWrite).toEqual([
      "mine",
      "deploy/k",
      ".",
    ]);
    expect(json.permissions.deny).toEqual(["Edit(/mine)", "Edit(/deploy/k)"]);
    // The lock lifted, the list changed: only those entries move.
    const second = planLocalBoundaryMerge(
      first.text,
      wanted(["other"], []),
      first.record,
    );
    if (!second.ok) throw new Error(second.problem);
    expect(JSON.parse(second.text)).toEqual({
      permissions: {
        allow: ["Bash(ls)"],
        deny: ["Edit(/mine)", "Edit(/other)"],
      },
      sandbox: { filesystem: { denyWrite: ["mine", "other"] } },
    });
    const removed = planLocalBoundaryMerge(
      second.text,
      wanted([], []),
      second.record,
    );
    if (!removed.ok) throw new Error(removed.problem);
    expect(removed.text).toBe(user);
  });
  it("an entry both lists want stays ours through every sync: on the default branch, off it, then no longer protected", () => {
    const steps = [
      wanted(["CLAUDE.md", "deploy/k"], []),
      wanted(["CLAUDE.md", "deploy/k"], ["CLAUDE.md", "src"]),
      wanted(["CLAUDE.md", "deploy/k"], ["CLAUDE.md", "src"]),
      wanted(["CLAUDE.md", "deploy/k"], []),
      wanted(["deploy/k"], []),
    ];
    let text: string | null = null;
    let record: Parameters<typeof planLocalBoundaryMerge>[2];
    const lists: unknown[] = [];
    for (const step of steps) {
      const next = planLocalBoundaryMerge(text, step, record);
      if (!next.ok) throw new Error(next.problem);
      ({ text, record } = next);
      lists.push(
        (parse(text) as { sandbox: { filesystem: { denyWrite: string[] } } })
          .sandbox.filesystem.denyWrite,
      );
    }
    expect(lists).toEqual([
      ["CLAUDE.md", "deploy/k"],
      ["CLAUDE.md", "deploy/k", "src"],
      ["CLAUDE.md", "deploy/k", "src"],
      ["CLAUDE.md", "deploy/k"],
      ["deploy/k"],
    ]);
  });

  it("an entry both lists want survives when one of them lets go", () => {
    const a = planLocalBoundaryMerge(
      null,
      wanted(["CLAUDE.md"], ["CLAUDE.md", "src"]),
      undefined,
    );
    if (!a.ok) throw new Error(a.problem);
    const b = planLocalBoundaryMerge(
      a.text,
      wanted([], ["CLAUDE.md", "src"]),
      a.record,
    );
    if (!b.ok) throw new Error(b.problem);
    expect(JSON.parse(b.text)).toEqual({
      sandbox: { filesystem: { denyWrite: ["CLAUDE.md", "src"] } },
    });
    const c = planLocalBoundaryMerge(b.text, wanted([], []), b.record);
    if (!c.ok) throw new Error(c.problem);
    expect(JSON.parse(c.text)).toEqual({});
  });
});
