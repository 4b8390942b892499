import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { renderPluginFiles } from "../../src/app/scaffold/plugin-files.ts";
import { HOOK_EVENTS } from "../../src/core/scaffold/hook-settings.ts";

const root = join(import.meta.dirname, "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  files: string[];
};
const files = renderPluginFiles(root, pkg.version);
const read = (path: string) =>
  JSON.parse(readFileSync(join(root, path), "utf8")) as Record<string, unknown>;

describe("the Claude Code plugin layout", () => {
  it("is checked in exactly as the templates render it (run `npm run gen:plugin` after changing them)", () => {
    for (const [path, text] of files) {
      expect(existsSync(join(root, path)), path).toBe(true);
      expect(readFileSync(join(root, path), "utf8"), path).toBe(text);
    }
  });

  it("ships with the package", () => {
    for (const dir of [
      ".claude-plugin",
      "hooks",
      "agents",
      "skills",
      "commands",
      "dist",
    ])
      expect(pkg.files).toContain(dir);
  });

  it("has a manifest Claude Code accepts, which does not name the conventional hooks file", () => {
    const manifest = read(".claude-plugin/plugin.json");
    expect(manifest["name"]).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(manifest["version"]).toBe(pkg.version);
    expect(manifest["hooks"]).toBeUndefined();
    for (const key of ["agents", "skills", "commands"])
      expect(manifest[key]).toBeUndefined();
  });

  it("has a marketplace whose one plugin installs this package from npm", () => {
    const marketplace = read(".claude-plugin/marketplace.json");
    expect(marketplace["name"]).toMatch(/^[a-z][a-z0-9-]*$/);
    expect([
      "claude-plugins-official",
      "claude-code-plugins",
      "anthropic-plugins",
    ]).not.toContain(marketplace["name"]);
    expect(marketplace["owner"]).toEqual({
      name: expect.any(String) as string,
    });
    expect(marketplace["plugins"]).toEqual([
      expect.objectContaining({
        name: "playbook",
        source: {
          source: "npm",
          package: "playbook-kit",
          version: pkg.version,
        },
      }),
    ]);
  });

  it("wires every event once to the bundle through ${CLAUDE_PLUGIN_ROOT}, in exec form with seconds, PreToolUse failing closed", () => {
    const hooks = read("hooks/hooks.json")["hooks"] as Record<
      string,
      { hooks: Record<string, unknown>[] }[]
    >;
    expect(Object.keys(hooks)).toEqual(HOOK_EVENTS.map((e) => e.event));
    for (const [event, groups] of Object.entries(hooks)) {
      expect(groups).toHaveLength(1);
      expect(groups[0]?.hooks).toEqual([
        {
          type: "command",
          command: "node",
          args: ["${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs", event],
          timeout: HOOK_EVENTS.find((e) => e.event === event)?.timeout,
          // A PreToolUse hook that crashes or times out blocks the call.
          ...(event === "PreToolUse" ? { onFailure: "block" } : {}),
        },
      ]);
    }
  });

  it("its agents keep to what plugin agents may use, and prompts call the CLI through npx", () => {
    for (const [path, text] of files) {
      if (!path.startsWith("agents/")) continue;
      const { data } = matter(text);
      for (const ignored of ["hooks", "mcpServers", "permissionMode"])
        expect(data[ignored], path).toBeUndefined();
    }
    expect(files.get("agents/reviewer.md")).toContain(
      "npx -y playbook-kit review approve",
    );
  });
});
