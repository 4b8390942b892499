import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  HISTORY_FILE,
  readArchiveHistory,
  writeArchiveJournal,
} from "../../src/adapters/archive-journal-store.ts";
import { sampleJournal } from "../helpers/archive-journal.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const AT = "2026-11-28T10:00:00.000Z";
const JOURNAL = sampleJournal({
  provider: "local",
  status: "success",
  pr: null,
  steps: { "archive-playbook": { status: "done", at: AT, detail: "moved" } },
});

describe("the archive history beside the journal", () => {
  it("is written with the journal once the playbook moved, and kept when the next archive's journal replaces it", () => {
    const { dir } = createTempProject();
    writeArchiveJournal(dir, { ...JOURNAL, steps: {} });
    expect(readArchiveHistory(dir)).toEqual({ status: "missing" });
    writeArchiveJournal(dir, JOURNAL);
    writeArchiveJournal(dir, {
      ...JOURNAL,
      id: "j2",
      archivePath: "plan/archive/playbook-b.md",
    });
    const read = readArchiveHistory(dir);
    expect(
      read.status === "ok" && read.history.entries.map((e) => e.archivePath),
    ).toEqual(["plan/archive/playbook-login.md", "plan/archive/playbook-b.md"]);
  });

  it("keeps a history it cannot read beside the new one, not written over", () => {
    const { dir } = createTempProject();
    mkdirSync(join(dir, ".claude", "playbook"), { recursive: true });
    writeFileSync(join(dir, HISTORY_FILE), "{ not json");
    writeArchiveJournal(dir, JOURNAL);
    const kept = readdirSync(join(dir, ".claude", "playbook")).filter((n) =>
      n.startsWith("archive-history.json.unreadable-"),
    );
    expect(kept).toHaveLength(1);
    expect(
      readFileSync(join(dir, ".claude", "playbook", kept[0] ?? ""), "utf8"),
    ).toBe("{ not json");
    expect(readArchiveHistory(dir).status).toBe("ok");
  });
});
