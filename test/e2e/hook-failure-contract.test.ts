import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GoldenPath } from "../../demo/golden-path.ts";
import { createMoves } from "../../demo/moves.ts";
import { MULTIPLY } from "../../demo/tasks.ts";
import { createWorld, stepTitled } from "../helpers/golden-path-world.ts";

/**
 * What the real client does with a PreToolUse hook that fails, with `"onFailure": "block"` as `init` writes it
 * (docs/claude-code.md). playbook's fail-closed design rests on these facts: a crash or a timeout blocks the call,
 * and a JSON reply written before the process is killed (the watchdog's) is read as the hook's answer. Each case
 * runs a second PreToolUse hook beside playbook's, with playbook's switched off so only it decides.
 */
describe("Claude Code with a PreToolUse hook that fails, onFailure block", () => {
  let world: GoldenPath;
  let m: ReturnType<typeof createMoves>;
  beforeAll(async () => {
    world = await createWorld();
    m = createMoves(world.project.dir, MULTIPLY);
  }, 600_000);

  const attempt = async (name: string, code: string, onFailure?: string) => {
    writeFileSync(
      join(world.project.dir, ".claude", "settings.local.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Write",
              hooks: [
                {
                  type: "command",
                  command: "node",
                  args: ["-e", code],
                  timeout: 3,
                  ...(onFailure ? { onFailure } : {}),
                },
              ],
            },
          ],
        },
      }),
    );
    const file = `notes-${name}.txt`;
    await world.session({
      prompt: "Write a note.",
      env: { PLAYBOOK_DISABLE: "1" },
      moves: [
        {
          actor: "agent",
          title: name,
          tool: {
            name: "Write",
            input: { file_path: world.path(file), content: "x\n" },
          },
          expect: "deny",
        },
        m.say("agent", "it stops", "Done. <promise>DONE</promise>", "stop"),
      ],
    });
    return {
      written: existsSync(world.path(file)),
      told: stepTitled(world, name).reply?.result?.text ?? "",
    };
  };

  it("a hook killed after writing its JSON reply: the reply is read", async () => {
    const seen = await attempt(
      "reply then killed",
      `require("node:fs").writeSync(1, JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "the watchdog's reason" } })); process.kill(process.pid, "SIGKILL")`,
      "block",
    );
    expect(seen.written).toBe(false);
    expect(seen.told).toContain("the watchdog's reason");
  }, 600_000);

  it("a hook that crashes blocks the call, and its stderr reaches the model", async () => {
    const seen = await attempt(
      "crash",
      `process.stderr.write("what went wrong\\n"); process.exit(1)`,
      "block",
    );
    expect(seen.written).toBe(false);
    expect(seen.told).toContain("what went wrong");
  }, 600_000);

  it("a hook that times out blocks the call", async () => {
    const seen = await attempt("hang", "setInterval(() => {}, 1000)", "block");
    expect(seen.written).toBe(false);
    expect(seen.told).toContain("timed out");
  }, 600_000);

  it("without onFailure, the same crash lets the call through: the reason init sets it", async () => {
    const seen = await attempt("crash, no onFailure", "process.exit(1)");
    expect(seen.written).toBe(true);
  }, 600_000);
});
