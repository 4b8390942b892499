import { gitArgs } from "./command-words.ts";
import { ALLOW, context } from "./facts.ts";
import type { Guard, GuardContext } from "./types.ts";

/** docs/guards.md #11: before a commit and at session start, say where `state.md`, the playbook and git disagree. */
export const coherenceGuard: Guard = {
  id: "coherence",
  number: 11,
  events: ["PreToolUse", "SessionStart"],
  check(ctx) {
    if (ctx.event === "PreToolUse" && !isCommit(ctx)) return ALLOW;
    const problems = findIncoherence(ctx);
    return problems.length > 0
      ? context(`playbook coherence: ${problems.join(" ")}`)
      : ALLOW;
  },
};

function isCommit(ctx: GuardContext): boolean {
  return (ctx.bash?.commands ?? []).some(
    (c) => gitArgs(c.argv)?.[0] === "commit",
  );
}

/** Each disagreement between state.md, the active playbook and git, as one sentence with its fix. */
export function findIncoherence(ctx: GuardContext): string[] {
  const problems: string[] = [...ctx.protectedProblems];
  if (ctx.stateProblem) problems.push(ctx.stateProblem);
  const state = ctx.state;
  if (!state) return problems;
  if (ctx.activeProblem) problems.push(ctx.activeProblem);
  const stateBranch = state.playbook.branch;
  if (stateBranch && ctx.git.branch && stateBranch !== ctx.git.branch)
    problems.push(
      `state.md says branch \`${stateBranch}\` but git is on \`${ctx.git.branch}\`: switch branches or fix state.md.`,
    );
  const playbook = ctx.active?.summary;
  if (playbook) {
    const metaBranch = playbook.meta.branch;
    if (metaBranch && stateBranch && metaBranch !== stateBranch)
      problems.push(
        `\`${ctx.active?.path ?? ""}\` names branch \`${metaBranch}\` but state.md says \`${stateBranch}\`: make them agree.`,
      );
    const phase = state.goal.phase;
    if (phase && !playbook.phases.some((p) => p.id === phase))
      problems.push(
        `state.md's phase \`${phase}\` is not a phase of \`${ctx.active?.path ?? ""}\`: set it to one of ${playbook.phases.map((p) => p.id).join(", ") || "its phases"}.`,
      );
  }
  return problems;
}
