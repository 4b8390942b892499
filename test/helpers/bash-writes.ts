import { expect } from "vitest";
import { analyzeBash } from "../../src/core/bash/analyze-bash.ts";
import type { BashAnalysis } from "../../src/core/bash/types.ts";

/** The writes of an analysis as `[op, path]` pairs, the form the tables list them in. */
export const writesOf = (a: BashAnalysis) =>
  a.writes.map((w) => [w.op, w.path]);

/** Asserts that `command` parses and would write exactly `expected`, in order. */
export function expectWrites(
  command: string,
  expected: readonly (readonly string[])[],
) {
  const analysis = analyzeBash(command);
  expect(analysis.error).toBeNull();
  expect(writesOf(analysis)).toEqual(expected);
}
