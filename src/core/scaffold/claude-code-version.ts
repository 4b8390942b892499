/**
 * The oldest Claude Code that runs what `playbook init` wires: exec-form hooks (`command` + `args`, no shell) came in
 * 2.1.139, and `onFailure: "block"` (a PreToolUse hook that crashes or times out blocks the call) in 2.1.295.
 * `playbook doctor` fails below it, and the end-to-end suite runs against it (`npm run test:compat`).
 */
export const MINIMUM_CLAUDE_CODE = "2.1.295";

/** The `x.y.z` in `claude --version`'s answer (`2.1.331 (Claude Code)`), as numbers; null when there is none. */
export function parseClaudeCodeVersion(text: string): number[] | null {
  const found = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return found ? found.slice(1, 4).map(Number) : null;
}
