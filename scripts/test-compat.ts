// `npm run test:compat`: the end-to-end files that drive the real Claude Code, run against the oldest release that
// runs the hooks `playbook init` writes (exec form, onFailure). `npm test` runs them against the pinned release.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { MINIMUM_CLAUDE_CODE } from "../src/core/scaffold/claude-code-version.ts";

const REAL_CLIENT_FILES = [
  "test/e2e/golden-path.test.ts",
  "test/e2e/golden-path-branches.test.ts",
  "test/e2e/claude-code-contract.test.ts",
  "test/e2e/plugin-route.test.ts",
  "test/e2e/demo.test.ts",
  "test/e2e/trust-boundary.test.ts",
  // The minimum must block a hook that crashes or times out (onFailure).
  "test/e2e/hook-failure-contract.test.ts",
];

const root = join(import.meta.dirname, "..");
const version =
  process.env["PLAYBOOK_CLAUDE_CODE_VERSION"] || MINIMUM_CLAUDE_CODE;
process.stdout.write(
  `Claude Code ${version}: ${REAL_CLIENT_FILES.length} end-to-end files\n`,
);
const result = spawnSync(
  join(root, "node_modules", ".bin", "vitest"),
  ["run", ...REAL_CLIENT_FILES, ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PLAYBOOK_CLAUDE_CODE_VERSION: version },
  },
);
process.exitCode = result.status ?? 1;
