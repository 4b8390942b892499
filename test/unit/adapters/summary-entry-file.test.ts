import { describe, expect, it } from "vitest";
import {
  parseEntry,
  serializeEntry,
} from "../../../src/adapters/summary-entry-file.ts";
import { summarizeDocument } from "../../../src/core/parse/summarize-document.ts";
import type { PlaybookSummary } from "../../../src/core/model/summary.ts";
import { renderLargePlaybook } from "../../helpers/large-playbook.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../../helpers/sample-docs.ts";

const key = {
  path: "plan/playbook-x.md",
  kind: "playbook" as const,
  mtimeMs: 1,
  ctimeMs: 2,
  size: 3,
  config: "none",
  version: "v",
};

function entryOf(text: string) {
  return {
    ...key,
    summary: summarizeDocument("playbook", text, key.path) as PlaybookSummary,
  };
}

/** Criteria in several scripts, so byte offsets and string offsets differ. */
const WIDE = SAMPLE_PLAYBOOK.replace(
  "exports `LoginForm`",
  "exports `LoginForm` — ログインフォームを表示する 🔐",
);

describe("the parse cache entry file", () => {
  it.each([
    ["the sample playbook", SAMPLE_PLAYBOOK],
    ["a playbook with multi-byte criteria", WIDE],
    ["a playbook of 40 phases", renderLargePlaybook(40, 5)],
    ["a playbook with no phases", "## meta\n```yaml\nproject: x\n```\n"],
  ])("reads back exactly what was written: %s", (_name, text) => {
    const entry = entryOf(text);
    const bytes = Buffer.from(serializeEntry(entry));
    const read = parseEntry(bytes);
    expect(read).toEqual(entry);
    // Read in another order: hashes first, then a late phase.
    const again = parseEntry(bytes) as typeof entry;
    expect(again.summary.hashes.subtasks).toEqual(
      entry.summary.hashes.subtasks,
    );
    expect(again.summary.phases.at(-1)?.subtasks).toEqual(
      entry.summary.phases.at(-1)?.subtasks,
    );
  });

  it("is plain JSON, whatever reads it", () => {
    const entry = entryOf(WIDE);
    const text = serializeEntry(entry);
    const plain = JSON.parse(text) as { summary: { goal: unknown } };
    expect(plain.summary.goal).toEqual(entry.summary.goal);
    // Rewritten with its layout lost, it is not used (the caller parses the playbook again); written plain, it is.
    expect(parseEntry(Buffer.from(JSON.stringify(plain, null, 2)))).toBeNull();
    expect(parseEntry(Buffer.from(JSON.stringify(entry)))).toEqual(entry);
  });

  it("parses a phase's subtasks only when they are asked for", () => {
    const entry = entryOf(renderLargePlaybook(3, 2));
    const text = serializeEntry(entry);
    // Break the last phase's segment without moving any byte: only reading that phase may fail.
    const last = text.lastIndexOf('"subtasks":[');
    const broken = `${text.slice(0, last)}"subtasks":#${text.slice(last + '"subtasks":['.length)}`;
    const read = parseEntry(Buffer.from(broken)) as typeof entry;
    expect(read.summary.meta).toEqual(entry.summary.meta);
    expect(read.summary.phases.map((p) => p.status)).toEqual(
      entry.summary.phases.map((p) => p.status),
    );
    expect(read.summary.phases[0]?.subtasks).toEqual(
      entry.summary.phases[0]?.subtasks,
    );
    expect(() => read.summary.phases[2]?.subtasks).toThrow(SyntaxError);
  });

  it("writes a state summary as it is", () => {
    const entry = {
      ...key,
      kind: "state" as const,
      summary: summarizeDocument("state", SAMPLE_STATE, "state.md"),
    };
    const text = serializeEntry(entry);
    expect(text).toBe(JSON.stringify(entry));
    expect(parseEntry(Buffer.from(text))).toEqual(entry);
  });

  it("refuses bytes that are not JSON, so the caller rebuilds the entry", () => {
    const text = serializeEntry(entryOf(SAMPLE_PLAYBOOK));
    expect(() => parseEntry(Buffer.from(text.slice(0, 200)))).toThrow();
    expect(() => parseEntry(Buffer.from(""))).toThrow();
  });
});
