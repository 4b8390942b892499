import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { claudeCodeVersion, ensureClaudeCode } from "../scripts/claude-code.ts";

/**
 * Before any test: `dist/` built from the current source, once for the whole run (test files only ever read it, so
 * they can run side by side), and the Claude Code CLI the end-to-end tests drive, installed once into its cache
 * folder (the pinned version, or PLAYBOOK_CLAUDE_CODE_VERSION). When either fails the run stops here with one line
 * that says what to do; the suite is never skipped silently.
 */
export default function setup(): void {
  // Every process the suite starts (test workers, the hook, the CLI, Claude Code, jobs) inherits this environment.
  // With NODE_EXTRA_CA_CERTS naming the system bundle, each Node process parses it at start (about 40 ms, tripling
  // `node -e 0`), and the suite starts thousands; nothing it runs speaks TLS (127.0.0.1 over http only). One test
  // keeps it set on purpose (test/e2e/hook-bundle.test.ts), and the bench measures both.
  delete process.env["NODE_EXTRA_CA_CERTS"];
  try {
    build();
    ensureClaudeCode(claudeCodeVersion());
  } catch (error) {
    const stopped = new Error(
      error instanceof Error ? error.message : String(error),
    );
    // The message is the whole story: a stack trace of the setup file would only bury the next step.
    stopped.stack = stopped.message;
    throw stopped;
  }
}

function build(): void {
  try {
    execFileSync(process.execPath, ["scripts/build.mjs"], {
      cwd: join(import.meta.dirname, ".."),
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `The build failed${stderr ? `: ${stderr}` : ""}. Run \`npm run build\` to see the whole error.`,
      { cause: error },
    );
  }
}
