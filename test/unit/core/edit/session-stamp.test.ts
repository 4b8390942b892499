import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StateSummary } from "../../../../src/core/model/summary.ts";
import {
  restampSummary,
  writeStamp,
} from "../../../../src/core/edit/session-stamp.ts";
import { setStateField } from "../../../../src/core/edit/state-writers.ts";
import { summarizeDocument } from "../../../../src/core/parse/summarize-document.ts";
import { toIsoTime } from "../../../../src/core/time/iso-time.ts";
import { SAMPLE_STATE } from "../../../helpers/sample-docs.ts";

const KEYS = [
  ["lastStart", "last_start"],
  ["lastEnd", "last_end"],
] as const;

/** Variants of a state.md's session block that people and tools write. */
const SESSION_BLOCKS = [
  "last_start: 2026-11-21T10:00:00Z\nlast_end:\n",
  "last_start: null\nlast_end: null\n",
  "last_start: \"2026-11-21T10:00:00Z\"   # quoted\nlast_end: 'x'\n",
  "last_start:   # set by the hook\nlast_end: ~\n",
  "  last_start: 2026-01-01T00:00:00Z\n  last_end: 2026-01-01T00:00:01Z\n",
  "last_end: null\nlast_start: null\nnotes: keep me\n",
];

function stateWith(block: string, eol = "\n", bom = ""): string {
  const text = SAMPLE_STATE.replace(
    /## session\n\n```yaml\n[\s\S]*?```/,
    `## session\n\n\`\`\`yaml\n${block}\`\`\``,
  );
  return bom + text.replace(/\n/g, eol);
}

describe("writeStamp", () => {
  it("writes exactly what setStateField writes, for any time and every block form", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SESSION_BLOCKS),
        fc.constantFrom("\n", "\r\n"),
        fc.constantFrom("", "\uFEFF"),
        fc.date({
          min: new Date("2000-01-01T00:00:00Z"),
          max: new Date("2099-12-31T23:59:59Z"),
          noInvalidDate: true,
        }),
        fc.constantFrom(...KEYS),
        (block, eol, bom, date, [slotName, key]) => {
          const text = stateWith(block, eol, bom);
          const summary = summarizeDocument(
            "state",
            text,
            "state.md",
          ) as StateSummary;
          const slot = summary.stamps[slotName];
          expect(slot).not.toBeNull();
          const iso = toIsoTime(date);
          const general = setStateField(text, "session", key, iso);
          expect(general.ok).toBe(true);
          const written = writeStamp(text, slot!, iso);
          expect(written?.text).toBe(general.ok ? general.text : "");
          // The summary it implies is the one a fresh parse gives, whenever it claims to know it.
          const restamped = restampSummary(
            summary,
            text,
            slotName,
            iso,
            written!,
          );
          if (restamped !== null)
            expect(restamped).toEqual(
              summarizeDocument("state", written!.text, "state.md"),
            );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("has no slot when the key is missing or the block is broken, so the hook falls back", () => {
    const missing = summarizeDocument(
      "state",
      stateWith("last_end: null\n"),
      "state.md",
    ) as StateSummary;
    expect(missing.stamps.lastStart).toBeNull();
    expect(missing.stamps.lastEnd).not.toBeNull();
    const broken = summarizeDocument(
      "state",
      stateWith("last_start: [oops\nlast_end: null\n"),
      "state.md",
    ) as StateSummary;
    expect(broken.stamps).toEqual({ lastStart: null, lastEnd: null });
  });

  it("refuses what is not an ISO time or a slot outside the text", () => {
    const text = stateWith(SESSION_BLOCKS[0]!);
    expect(writeStamp(text, { start: 0, end: 0 }, "yesterday")).toBeNull();
    expect(
      writeStamp(
        text,
        { start: text.length, end: text.length + 3 },
        "2026-11-21T10:00:00Z",
      ),
    ).toBeNull();
  });
});

describe("restampSummary", () => {
  it("knows the new summary for the usual forms, so the parse cache stays warm", () => {
    for (const block of SESSION_BLOCKS) {
      const text = stateWith(block);
      const summary = summarizeDocument(
        "state",
        text,
        "state.md",
      ) as StateSummary;
      const iso = "2026-11-23T04:05:06.007Z";
      const written = writeStamp(text, summary.stamps.lastStart!, iso)!;
      expect(restampSummary(summary, text, "lastStart", iso, written)).toEqual(
        summarizeDocument("state", written.text, "state.md"),
      );
    }
  });

  it("declines when the old value spans lines or a diagnostic sits on its line", () => {
    const iso = "2026-11-23T04:05:06Z";
    const multi = stateWith("last_start: |\n  2026-11-21\nlast_end: null\n");
    const summary = summarizeDocument(
      "state",
      multi,
      "state.md",
    ) as StateSummary;
    expect(summary.stamps.lastStart).not.toBeNull();
    const written = writeStamp(multi, summary.stamps.lastStart!, iso)!;
    expect(
      restampSummary(summary, multi, "lastStart", iso, written),
    ).toBeNull();

    const flagged = stateWith("last_start: [1, 2]\nlast_end: null\n");
    const withDiagnostic = summarizeDocument(
      "state",
      flagged,
      "state.md",
    ) as StateSummary;
    expect(withDiagnostic.diagnostics.map((d) => d.code)).toEqual([
      "field-invalid",
    ]);
    const fixed = writeStamp(flagged, withDiagnostic.stamps.lastStart!, iso)!;
    expect(
      restampSummary(withDiagnostic, flagged, "lastStart", iso, fixed),
    ).toBeNull();
  });
});
