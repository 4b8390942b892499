import { describe, expect, it } from "vitest";
import {
  createRecordSet,
  isRecordCurrent,
} from "../../../../src/core/records/record-set.ts";
import type { PlaybookRecord } from "../../../../src/core/records/record.ts";

function record(overrides: Partial<PlaybookRecord>): PlaybookRecord {
  return {
    kind: "evidence",
    playbook: "plan/playbook-a.md",
    target: "p1.1",
    validation: "technical",
    contentHash: "sha256:aa",
    verdict: "PASS",
    by: "playbook-verify",
    at: "2026-11-21T10:00:00.000Z",
    detail: {},
    ...overrides,
  };
}

const KEY = {
  kind: "evidence",
  playbook: "plan/playbook-a.md",
  target: "p1.1",
  validation: "technical",
} as const;

describe("createRecordSet", () => {
  it("keeps the newest record of a key, whatever the order", () => {
    const old = record({ verdict: "FAIL", at: "2026-11-21T09:00:00.000Z" });
    const late = record({ verdict: "PASS", at: "2026-11-21T11:00:00+02:00" });
    const newest = record({
      verdict: "PASS",
      at: "2026-11-21T10:00:00.000Z",
      by: "x",
    });
    expect(createRecordSet([old, newest, late]).latest(KEY)).toBe(newest);
    expect(createRecordSet([newest, old]).latest(KEY)).toBe(newest);
  });

  it("lets the later of two records with the same time win", () => {
    const a = record({ by: "a" });
    const b = record({ by: "b" });
    expect(createRecordSet([a, b]).latest(KEY)?.by).toBe("b");
  });

  it.each([
    ["another validation", { ...KEY, validation: "consistency" as const }],
    [
      "no validation",
      { kind: "evidence" as const, playbook: KEY.playbook, target: "p1.1" },
    ],
    ["another target", { ...KEY, target: "p1.2" }],
    ["another playbook", { ...KEY, playbook: "plan/playbook-b.md" }],
    [
      "another kind",
      { kind: "confirmation" as const, playbook: KEY.playbook, target: "p1.1" },
    ],
  ])("answers null for %s", (_name, key) => {
    expect(createRecordSet([record({})]).latest(key)).toBeNull();
  });

  it("keeps keys apart", () => {
    const technical = record({});
    const confirmation = record({ kind: "confirmation", by: "user" });
    delete confirmation.validation;
    const set = createRecordSet([technical, confirmation]);
    expect(set.latest(KEY)).toBe(technical);
    expect(
      set.latest({
        kind: "confirmation",
        playbook: KEY.playbook,
        target: "p1.1",
      }),
    ).toBe(confirmation);
  });
});

describe("isRecordCurrent", () => {
  it.each([
    ["sha256:aa", true],
    ["sha256:bb", false],
    [null, false],
  ])("hash %s -> %s", (hash, expected) => {
    expect(isRecordCurrent(record({}), hash)).toBe(expected);
  });
});
