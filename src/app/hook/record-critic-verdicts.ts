import { writeRecord } from "../../adapters/record-store.ts";
import { parseVerdictBlocks } from "../../core/records/verdict-block.ts";
import type { HookPayload } from "../../hooks/payload.ts";
import type { HookAnswer } from "../../hooks/reply.ts";
import type { HookDeps } from "./hook-run.ts";
import { subagentType } from "./build-guard-context.ts";
import { readRecordBasis } from "../records/record-basis.ts";
import { readWorkspaceSummary } from "../workspace/read-workspace-summary.ts";

const VERDICT_FORMAT =
  "End your final message with a fenced block:\n```verdict\nphase: <phase id>\nverdict: PASS or FAIL\nevidence: <what you ran and saw>\n```";

/**
 * SubagentStop of the critic (docs/guards.md): the fenced `verdict` block of its last message becomes a critic record for the
 * active playbook's phase, hashed over the phase as it is now. A critic that ends without a usable block is sent
 * back once (not while `stop_hook_active`, so it can never loop).
 */
export function recordCriticVerdicts(
  projectDir: string,
  payload: HookPayload,
  deps: Pick<HookDeps, "summarize" | "now">,
): HookAnswer {
  const answer: HookAnswer = { block: null, context: [], notice: null };
  // Only a subagent (agent_id present) is the critic: a main session started with `--agent critic` is not.
  const agent = subagentType(payload) ?? "";
  if (agent !== "critic" && !agent.endsWith(":critic")) return answer;
  const retry = (why: string): HookAnswer =>
    payload.stop_hook_active === true
      ? {
          ...answer,
          notice: `playbook: the critic's verdict was not recorded: ${why}`,
        }
      : {
          ...answer,
          block: `playbook could not record your verdict: ${why} ${VERDICT_FORMAT}`,
        };
  const message = payload.last_assistant_message ?? "";
  const { verdicts, problems } = parseVerdictBlocks(message);
  if (problems.length > 0) return retry(problems.join("; "));
  if (verdicts.length === 0)
    return retry("your final message has no verdict block.");
  const active = readWorkspaceSummary(projectDir, deps.summarize).active;
  if (!active)
    return {
      ...answer,
      notice:
        "playbook: the critic's verdict was not recorded: no active playbook in state.md.",
    };
  const recorded: string[] = [];
  const basis = readRecordBasis(projectDir, active.summary);
  for (const verdict of verdicts) {
    const hash = active.summary.hashes.phases[verdict.phase] ?? null;
    if (hash === null)
      return retry(
        `\`${verdict.phase}\` is not a phase of ${active.path} (phases: ${active.summary.phases.map((p) => p.id).join(", ")}).`,
      );
    writeRecord(projectDir, {
      kind: "critic",
      playbook: active.path,
      target: verdict.phase,
      contentHash: hash,
      verdict: verdict.verdict,
      by: agent,
      at: deps.now().toISOString(),
      detail: { evidence: verdict.evidence, source: "SubagentStop", ...basis },
    });
    recorded.push(`${verdict.verdict} for ${verdict.phase}`);
  }
  return {
    ...answer,
    notice: `playbook: recorded the critic's ${recorded.join(", ")} (${active.path}).`,
  };
}
