/**
 * The reply when the hook itself fails on a PreToolUse call: a deny, since Claude Code runs a call whose hook crashed
 * or timed out as if there were no hook. `cli` is how the project runs playbook (`setupOfDist`). Kept free of other imports: the loader (`dist/hook.cjs`) uses it too.
 */
export function failedPreToolUse(
  error: unknown,
  cli = "npx --no playbook",
): string {
  const why = error instanceof Error ? error.message : String(error);
  const reason = `Blocked: playbook's hook failed: ${why.slice(0, 2000)}; run \`${cli} doctor\`. Next: tell the user, and retry the call once doctor passes. Kill switch: the user can start Claude Code with PLAYBOOK_DISABLE=1 to turn every playbook guard off.`;
  return `${JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  })}\n`;
}
