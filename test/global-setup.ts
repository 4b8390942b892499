import { claudeCodeVersion, ensureClaudeCode } from "../scripts/claude-code.ts";

/**
 * Before any test: the Claude Code CLI the end-to-end tests drive, installed once into its cache folder (the pinned
 * version, or PLAYBOOK_CLAUDE_CODE_VERSION). When it cannot be installed the run stops here with one line that says
 * what to do; the suite is never skipped silently.
 */
export default function setup(): void {
  try {
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
