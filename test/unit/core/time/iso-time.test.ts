import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toIsoTime } from "../../../../src/core/time/iso-time.ts";

describe("toIsoTime", () => {
  it("writes what Date#toISOString writes, for any valid date", () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(toIsoTime(date)).toBe(date.toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    "1970-01-01T00:00:00.000Z",
    "2026-11-23T04:05:06.007Z",
    "0001-02-03T04:05:06.789Z",
    "9999-12-31T23:59:59.999Z",
  ])("%s", (iso) => {
    expect(toIsoTime(new Date(iso))).toBe(iso);
  });
});
