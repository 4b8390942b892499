import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readRecords, writeRecord } from "../../src/adapters/record-store.ts";
import type { PlaybookRecord } from "../../src/core/records/record.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";
const FOLDER = ".claude/playbook/records/plan__playbook-login-form.md";

function record(overrides: Partial<PlaybookRecord> = {}): PlaybookRecord {
  return {
    kind: "evidence",
    playbook: PLAYBOOK,
    target: "p1.1",
    validation: "technical",
    contentHash: "sha256:aa",
    verdict: "PASS",
    by: "playbook-verify",
    at: "2026-11-21T10:00:00.000Z",
    detail: { command: "npx tsc --noEmit", exitCode: 0 },
    ...overrides,
  };
}

const REVIEW: PlaybookRecord = {
  kind: "review",
  playbook: PLAYBOOK,
  target: "playbook",
  contentHash: "sha256:bb",
  verdict: "approve",
  by: "reviewer",
  at: "2026-11-21T10:00:00.000Z",
  detail: {},
};

describe("record store", () => {
  it("files each record by playbook and key, and appends every record to history.jsonl", () => {
    const project = createTempProject();
    writeRecord(project.dir, record({ verdict: "FAIL" }));
    writeRecord(project.dir, record());
    writeRecord(project.dir, REVIEW);
    expect(readdirSync(project.path(FOLDER)).sort()).toEqual([
      "evidence.p1.1.technical.json",
      "review.playbook.json",
    ]);
    expect(
      JSON.parse(project.read(`${FOLDER}/evidence.p1.1.technical.json`)),
    ).toEqual(record());
    const history = project
      .read(".claude/playbook/records/history.jsonl")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as PlaybookRecord);
    expect(history.map((r) => r.verdict)).toEqual(["FAIL", "PASS", "approve"]);
  });

  it("reads every record of a playbook, or only the listed keys", () => {
    const project = createTempProject();
    writeRecord(project.dir, record());
    writeRecord(project.dir, REVIEW);
    writeRecord(project.dir, { ...REVIEW, playbook: "plan/playbook-other.md" });
    expect(readRecords(project.dir, PLAYBOOK)).toEqual([record(), REVIEW]);
    expect(
      readRecords(project.dir, PLAYBOOK, [
        { kind: "review", playbook: PLAYBOOK, target: "playbook" },
        { kind: "critic", playbook: PLAYBOOK, target: "p1" },
      ]),
    ).toEqual([REVIEW]);
    expect(readRecords(project.dir, "plan/playbook-none.md")).toEqual([]);
  });

  it("skips corrupt, malformed and misfiled records instead of throwing", () => {
    const project = createTempProject();
    writeRecord(project.dir, REVIEW);
    project.write(`${FOLDER}/evidence.p1.1.technical.json`, "{not json");
    project.write(
      `${FOLDER}/critic.p1.json`,
      JSON.stringify({ kind: "critic" }),
    );
    // A valid record copied under another key's name must not count for that key.
    project.write(`${FOLDER}/confirmation.p1.1.json`, JSON.stringify(record()));
    project.write(
      `${FOLDER}/.review.playbook.json.123.tmp`,
      JSON.stringify(REVIEW),
    );
    project.write(`${FOLDER}/notes.txt`, "hello");
    expect(readRecords(project.dir, PLAYBOOK)).toEqual([REVIEW]);
    expect(
      readRecords(project.dir, PLAYBOOK, [
        {
          kind: "evidence",
          playbook: PLAYBOOK,
          target: "p1.1",
          validation: "technical",
        },
        { kind: "critic", playbook: PLAYBOOK, target: "p1" },
        { kind: "confirmation", playbook: PLAYBOOK, target: "p1.1" },
      ]),
    ).toEqual([]);
  });

  it("ignores keys of another playbook and a records folder that is a file", () => {
    const project = createTempProject({ [FOLDER]: "not a folder" });
    expect(readRecords(project.dir, PLAYBOOK)).toEqual([]);
    expect(
      readRecords(project.dir, PLAYBOOK, [
        { ...REVIEW, playbook: "plan/playbook-other.md" },
      ]),
    ).toEqual([]);
  });
});
