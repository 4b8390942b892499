import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/ once and installs the pinned Claude Code: test files only read them, so they run side by side.
    globalSetup: ["test/global-setup.ts"],
    // Generous for a loaded 2-core machine; tests assert behaviour, never time.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // A test file spends much of its time waiting on the processes it starts (Claude Code, git, the hook, the 2 s a
    // changed sandbox setting is given to reload), so one file more than there are cores keeps them busy: measured on
    // 2 cores, 607 s with two workers, 545 s with three, 545 s with four (bench/results.md).
    maxWorkers: availableParallelism() + 1,
  },
});
