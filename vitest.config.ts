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
    // A test file spends most of its time waiting on the processes it starts (Claude Code, git, the hook), so two
    // keep a 2-core machine busy where Vitest's default (cores - 1) would run one file at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
