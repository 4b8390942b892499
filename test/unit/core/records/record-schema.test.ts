import { describe, expect, it } from "vitest";
import { parseRecord } from "../../../../src/core/records/record-schema.ts";

const EVIDENCE = {
  kind: "evidence",
  playbook: "plan/playbook-a.md",
  target: "p1.1",
  validation: "technical",
  contentHash: "sha256:aa",
  verdict: "PASS",
  by: "playbook-verify",
  at: "2026-11-21T10:00:00.000Z",
  detail: { command: "npx tsc --noEmit", exitCode: 0 },
};

const REVIEW = {
  kind: "review",
  playbook: "plan/playbook-a.md",
  target: "playbook",
  contentHash: "sha256:bb",
  verdict: "approve",
  by: "reviewer",
  at: "2026-11-21T10:00:00.000Z",
  detail: { notes: null },
};

describe("parseRecord", () => {
  it.each([
    ["evidence", EVIDENCE],
    ["a review", REVIEW],
    [
      "a critic FAIL",
      { ...REVIEW, kind: "critic", target: "p1", verdict: "FAIL" },
    ],
    [
      "a confirmation",
      {
        ...REVIEW,
        kind: "confirmation",
        target: "p1.1",
        verdict: "PASS",
        by: "user",
      },
    ],
  ])("reads %s", (_name, json) => {
    expect(parseRecord(json)).toEqual(json);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["a string", "record"],
    ["an array", [EVIDENCE]],
    ["an unknown kind", { ...EVIDENCE, kind: "vibes" }],
    ["an unknown verdict", { ...EVIDENCE, verdict: "OK" }],
    ["a review saying PASS", { ...REVIEW, verdict: "PASS" }],
    ["evidence saying approve", { ...EVIDENCE, verdict: "approve" }],
    ["evidence without a validation", { ...EVIDENCE, validation: undefined }],
    ["a review naming a validation", { ...REVIEW, validation: "technical" }],
    ["an unknown validation", { ...EVIDENCE, validation: "vibes" }],
    ["an empty hash", { ...EVIDENCE, contentHash: "" }],
    ["a time that is no date", { ...EVIDENCE, at: "yesterday" }],
    ["a detail that is a list", { ...EVIDENCE, detail: [] }],
    ["a missing by", { ...EVIDENCE, by: undefined }],
  ])("refuses %s", (_name, json) => {
    expect(parseRecord(json)).toBeNull();
  });
});
