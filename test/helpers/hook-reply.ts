/** A hook's JSON reply as Claude Code reads it: the decision, its reason, the model's context, the user's notice. */
export interface HookReply {
  /** `allow` only when playbook ran the command itself and swapped in `command` to show its output. */
  decision: "deny" | "block" | "allow" | null;
  reason: string;
  context: string;
  notice: string;
  /** The Bash command Claude Code runs instead (`updatedInput.command`), or null. */
  command: string | null;
}

/** Reads a hook's stdout (empty, or one JSON object) into what Claude Code acts on. */
export function readHookReply(stdout: string): HookReply {
  const out: HookReply = {
    decision: null,
    reason: "",
    context: "",
    notice: "",
    command: null,
  };
  if (stdout.trim() === "") return out;
  const reply = JSON.parse(stdout) as {
    decision?: string;
    reason?: string;
    systemMessage?: string;
    hookSpecificOutput?: {
      permissionDecision?: string;
      permissionDecisionReason?: string;
      additionalContext?: string;
      updatedInput?: { command?: string };
    };
  };
  const specific = reply.hookSpecificOutput ?? {};
  if (specific.permissionDecision === "deny") {
    out.decision = "deny";
    out.reason = specific.permissionDecisionReason ?? "";
  } else if (specific.permissionDecision === "allow") {
    out.decision = "allow";
    out.reason = specific.permissionDecisionReason ?? "";
    out.command = specific.updatedInput?.command ?? null;
  } else if (reply.decision === "block") {
    out.decision = "block";
    out.reason = reply.reason ?? "";
  }
  out.context = specific.additionalContext ?? "";
  out.notice = reply.systemMessage ?? "";
  return out;
}
