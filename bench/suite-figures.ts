/**
 * The section "The test suite (issue 30)" of bench/results.md: the wall time of `npm test` on this 2-core machine,
 * measured by hand (a run takes ten minutes, so `npm run bench` does not repeat it). `run.ts` writes it as it is.
 */
export const SUITE_FIGURES: readonly string[] = [
  "## The test suite (issue 30)",
  "",
  "`npm test` (build, then every file, two at a time) on the 2-core VM, measured by hand: a run takes about ten",
  "minutes, so `bench/run.ts` writes this section as it stands and does not run the suite. Budget: 10 minutes.",
  "",
  "Before (2026-11-28, the build of issue 29, quiet machine, load average under 1.5 at the start):",
  "",
  "| run | wall | note |",
  "| --- | ---: | --- |",
  "| `npm test`, 2 workers | 745 s | 198 files, 4,116 tests; the files' own times add up to 1,416 s |",
  "| `npm test`, 3 workers | 766 s | no faster: the two cores were already busy |",
  "| CI (stop 33) | 782 s | `.ci/run`: `npm ci`, lint, `npm test` |",
  "",
  "What changed, file by file: `test/e2e/golden-path.test.ts` alone took 74 s (user 42 s) with",
  "`NODE_EXTRA_CA_CERTS` naming the system bundle and 56 s (user 30 s) without it.",
  "",
];
