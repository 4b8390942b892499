import { describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../../src/core/guards/events.ts";
import { toHookReply } from "../../../src/hooks/reply.ts";

const nothing = { block: null, context: [], notice: null };

describe("toHookReply", () => {
  it("denies a PreToolUse call inside hookSpecificOutput, never at the top level", () => {
    const reply = toHookReply("PreToolUse", {
      ...nothing,
      block: "Blocked: x",
    });
    expect(reply.exitCode).toBe(0);
    expect(JSON.parse(reply.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "Blocked: x",
      },
    });
  });

  it("never answers `allow`, which would skip the user's permission prompts", () => {
    const reply = toHookReply("PreToolUse", { ...nothing, context: ["note"] });
    expect(reply.stdout).not.toContain("permissionDecision");
    expect(JSON.parse(reply.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        additionalContext: "note",
      },
    });
  });

  it("prints nothing at all when there is nothing to say", () => {
    for (const event of HOOK_EVENTS)
      expect(toHookReply(event, nothing).stdout).toBe("");
  });

  it.each(["PostToolUse", "Stop", "SubagentStop"] as const)(
    "blocks %s with a top-level decision and reason",
    (event) => {
      const parsed = JSON.parse(
        toHookReply(event, { ...nothing, block: "why" }).stdout,
      ) as Record<string, unknown>;
      expect(parsed["decision"]).toBe("block");
      expect(parsed["reason"]).toBe("why");
      expect(parsed["hookSpecificOutput"]).toBeUndefined();
    },
  );

  it("drops context on events that do not honour it and notices on events that discard them", () => {
    expect(toHookReply("Stop", { ...nothing, context: ["x"] }).stdout).toBe("");
    expect(toHookReply("SessionEnd", { ...nothing, notice: "x" }).stdout).toBe(
      "",
    );
    expect(toHookReply("PreCompact", { ...nothing, notice: "x" }).stdout).toBe(
      "",
    );
  });

  it("keeps every output string under Claude Code's 10,000-character cap", () => {
    const reply = toHookReply("PreToolUse", {
      ...nothing,
      block: "x".repeat(50_000),
      context: ["y".repeat(50_000)],
    });
    const parsed = JSON.parse(reply.stdout) as {
      hookSpecificOutput: Record<string, string>;
    };
    expect(
      parsed.hookSpecificOutput["permissionDecisionReason"]!.length,
    ).toBeLessThan(10_000);
    expect(parsed.hookSpecificOutput["additionalContext"]!.length).toBeLessThan(
      10_000,
    );
  });

  it("cuts a refusal over the cap in its middle, where a long command is quoted: its next step and kill switch still read", () => {
    const command = `rm -rf /tmp/${"**?".repeat(20_000)} state.md`;
    const end =
      "would delete `state.md`. Next: delete the specific files the task needs gone. Kill switch: PLAYBOOK_DISABLE=1.";
    const block = `Blocked: \`${command}\` ${end}`;
    const parsed = JSON.parse(
      toHookReply("PreToolUse", { ...nothing, block }).stdout,
    ) as { hookSpecificOutput: Record<string, string> };
    const reason = parsed.hookSpecificOutput["permissionDecisionReason"]!;

    expect(reason.length).toBeLessThanOrEqual(9_500);
    expect(reason.startsWith("Blocked: `rm -rf /tmp/**?**?")).toBe(true);
    expect(reason.endsWith(`**?**? state.md\` ${end}`)).toBe(true);
    const note = /\n… \((\d+) characters left out\) …\n/.exec(reason);
    expect(Number(note?.[1])).toBe(
      block.length - (reason.length - (note?.[0].length ?? 0)),
    );
  });

  it("writes exactly one JSON object on one line", () => {
    const reply = toHookReply("SessionStart", {
      ...nothing,
      context: ["a\nb"],
      notice: "n",
    });
    expect(reply.stdout.trim().split("\n")).toHaveLength(1);
  });
});
