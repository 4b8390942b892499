import { describe, expect, it } from "vitest";
import type { PlaybookSummary } from "../../../../src/core/model/summary.ts";
import { tickedSummary } from "../../../../src/core/edit/checkbox-ticks.ts";
import { summarizeDocument } from "../../../../src/core/parse/summarize-document.ts";
import { phaseHash } from "../../../../src/core/records/content-hash.ts";
import { renderLargePlaybook } from "../../../helpers/large-playbook.ts";
import { SAMPLE_PLAYBOOK } from "../../../helpers/sample-docs.ts";

const PATH = "plan/playbook-login-form.md";

function summary(text: string): PlaybookSummary {
  return summarizeDocument("playbook", text, PATH) as PlaybookSummary;
}

function derive(before: string, after: string): PlaybookSummary | null {
  return tickedSummary(before, after, summary(before), phaseHash);
}

function tick(text: string, id: string): string {
  return text.replace(`- [ ] **${id}**`, `- [x] **${id}**`);
}

describe("tickedSummary: a tick without a second parse", () => {
  it.each([["p1.1"], ["p2.1"], ["ft1"]])(
    "ticking %s gives exactly the summary a full parse of the new text gives",
    (id) => {
      const after = tick(SAMPLE_PLAYBOOK, id);
      expect(derive(SAMPLE_PLAYBOOK, after)).toEqual(summary(after));
    },
  );

  it("several boxes at once, upper-case X included, match a full parse too", () => {
    const after = tick(SAMPLE_PLAYBOOK, "p1.1")
      .replace("- [ ] **p2.1**", "- [X] **p2.1**")
      .replace("- [ ] **ft1**", "- [x] **ft1**");
    expect(derive(SAMPLE_PLAYBOOK, after)).toEqual(summary(after));
  });

  it("the ticked phase's critic hash changes, as a parse says it does", () => {
    const after = tick(SAMPLE_PLAYBOOK, "p1.1");
    const derived = derive(SAMPLE_PLAYBOOK, after)!;
    expect(derived.hashes.phases["p1"]).not.toBe(
      summary(SAMPLE_PLAYBOOK).hashes.phases["p1"],
    );
    expect(derived.hashes).toEqual(summary(after).hashes);
  });

  it("hashes a ticked phase only when its hash is read, and then as a parse does", () => {
    const after = tick(SAMPLE_PLAYBOOK, "p1.1");
    const hashed: string[] = [];
    const derived = tickedSummary(
      SAMPLE_PLAYBOOK,
      after,
      summary(SAMPLE_PLAYBOOK),
      (playbook, id) => {
        hashed.push(id);
        return phaseHash(playbook, id);
      },
    )!;
    expect(hashed).toEqual([]);
    expect(derived.hashes.phases["p1"]).toBe(
      summary(after).hashes.phases["p1"],
    );
    expect(derived.hashes.phases["p1"]).toBe(
      summary(after).hashes.phases["p1"],
    );
    expect(hashed).toEqual(["p1"]);
  });

  // The texts are compared a block at a time (4,096 characters): a box on either side of a block's edge is found.
  it.each([[4094], [4095], [4096], [4097], [8192]])(
    "finds a box whose mark sits at offset %i, as a full parse does",
    (offset) => {
      const box = SAMPLE_PLAYBOOK.indexOf("- [ ] **p2.1**") + 3;
      const padded = SAMPLE_PLAYBOOK.replace(
        "Who: the web team.",
        `Who: the web team.${" ".repeat(offset - box)}`,
      );
      expect(padded.indexOf("- [ ] **p2.1**") + 3).toBe(offset);
      const after = tick(padded, "p2.1");
      expect(derive(padded, after)).toEqual(summary(after));
    },
  );

  it("matches a full parse on every box of a generated playbook", () => {
    const text = renderLargePlaybook(3, 4);
    const open = [...text.matchAll(/^- \[ \] \*\*([^*]+)\*\*/gm)].map(
      (m) => m[1]!,
    );
    expect(open.length).toBeGreaterThan(10);
    for (const id of open) {
      const after = tick(text, id);
      expect(derive(text, after), id).toEqual(summary(after));
    }
  });

  const withCopy = SAMPLE_PLAYBOOK.replace(
    "Who: the web team.",
    "```\n- [ ] **p2.1**\n```",
  );
  const withNote = SAMPLE_PLAYBOOK.replace(
    "Who: the web team.",
    "- [ ] **zz9** a note",
  );
  const withLateBox = SAMPLE_PLAYBOOK.replace(
    "the form values",
    "the form values [ ] later",
  );
  it.each([
    [
      "an untick",
      SAMPLE_PLAYBOOK,
      SAMPLE_PLAYBOOK.replace("- [X] **p1.2**", "- [ ] **p1.2**"),
    ],
    [
      "a tick plus any other change",
      SAMPLE_PLAYBOOK,
      tick(SAMPLE_PLAYBOOK, "p1.1").replace("in_progress", "in_progresX"),
    ],
    [
      "the same length, another character",
      SAMPLE_PLAYBOOK,
      SAMPLE_PLAYBOOK.replace("**status**: pending", "**status**: pendinG"),
    ],
    [
      "a box later on the line, not its head",
      withLateBox,
      withLateBox.replace("values [ ] later", "values [x] later"),
    ],
    [
      "an id heading two lines (a copy in a code block)",
      withCopy,
      tick(withCopy, "p2.1"),
    ],
    [
      "a box whose id the playbook has no item for",
      withNote,
      tick(withNote, "zz9"),
    ],
    ["no change at all", SAMPLE_PLAYBOOK, SAMPLE_PLAYBOOK],
  ])("returns null, so the caller parses: %s", (_name, before, after) => {
    expect(derive(before, after)).toBeNull();
  });

  it("returns null for a tick in a phase already done: its lint changes with the box", () => {
    const done = SAMPLE_PLAYBOOK.replace(
      "**status**: pending",
      "**status**: done",
    );
    expect(derive(done, tick(done, "p2.1"))).toBeNull();
  });
});
