import { describe, expect, it } from "vitest";
import { evaluateGuards } from "../../../../src/core/guards/evaluate.ts";
import type { Guard, GuardContext } from "../../../../src/core/guards/types.ts";

const ctx = { event: "PreToolUse" } as GuardContext;

function guard(
  id: string,
  number: number,
  check: Guard["check"],
  failClosed = false,
): Guard {
  return { id, number, events: ["PreToolUse"], failClosed, check };
}

const allow: Guard["check"] = () => ({ decision: { kind: "allow" } });
const boom: Guard["check"] = () => {
  throw new Error("boom");
};

describe("evaluateGuards", () => {
  it("stops at the first block, in order, and keeps context from the guards before it", () => {
    const verdict = evaluateGuards(ctx, [
      guard("a", 1, () => ({ decision: { kind: "context", text: "note" } })),
      guard("b", 2, () => ({ decision: { kind: "block", reason: "no" } })),
      guard("c", 3, () => ({
        decision: { kind: "block", reason: "never reached" },
      })),
    ]);
    expect(verdict.block).toEqual({ guard: "b", reason: "no" });
    expect(verdict.context).toEqual(["note"]);
    expect(verdict.timings.map((t) => t.guard)).toEqual(["a", "b"]);
  });

  it("blocks a tool call whenever any guard throws on it: a call no guard could check does not go through", () => {
    const verdict = evaluateGuards(ctx, [
      guard("flaky", 1, boom),
      guard("next", 2, allow),
    ]);
    expect(verdict.block?.guard).toBe("flaky");
    expect(verdict.block?.reason).toContain("the flaky guard failed (boom)");
    expect(verdict.block?.reason).toContain("PLAYBOOK_DISABLE=1");
    expect(verdict.failures).toEqual([
      { guard: "flaky", error: "boom", failClosed: true },
    ]);
  });

  it("at other events, reports and skips a throwing fail-open guard: the stop goes on, and the model is told", () => {
    const stop = { event: "Stop" } as GuardContext;
    const onStop = (id: string, number: number, check: Guard["check"]) => ({
      ...guard(id, number, check),
      events: ["Stop" as const],
    });
    const verdict = evaluateGuards(stop, [
      onStop("flaky", 1, boom),
      onStop("next", 2, allow),
    ]);
    expect(verdict.block).toBeNull();
    expect(verdict.failures).toEqual([
      { guard: "flaky", error: "boom", failClosed: false },
    ]);
    expect(verdict.context[0]).toContain(
      "the flaky guard failed (boom) and was skipped",
    );
  });

  it("turns a throwing fail-closed guard into a block that names the kill switch", () => {
    const verdict = evaluateGuards(ctx, [guard("records", 1, boom, true)]);
    expect(verdict.block?.guard).toBe("records");
    expect(verdict.block?.reason).toContain("PLAYBOOK_DISABLE=1");
  });

  it("drops effects of earlier guards when a later one blocks, so a refused call leaves no grant", () => {
    const verdict = evaluateGuards(ctx, [
      guard("grants", 1, () => ({
        decision: { kind: "allow" },
        effects: [{ kind: "session-read", path: "state.md" }],
      })),
      guard("blocks", 2, () => ({ decision: { kind: "block", reason: "no" } })),
    ]);
    expect(verdict.effects).toEqual([]);
  });

  it("runs only the guards of the event", () => {
    const verdict = evaluateGuards({ event: "SessionStart" } as GuardContext, [
      guard("pre-only", 1, () => ({
        decision: { kind: "block", reason: "no" },
      })),
    ]);
    expect(verdict.block).toBeNull();
  });
});
