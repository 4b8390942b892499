import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Generous for a loaded 2-core machine; tests assert behaviour, never time.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
