import { ALLOW, block, describeChanges, gatedChanges } from "./facts.ts";
import type { Guard } from "./types.ts";

/** docs/guards.md #3: no work on the default branch; the playbook's own branch holds it. */
export const mainBranchGuard: Guard = {
  id: "main-branch",
  number: 3,
  events: ["PreToolUse"],
  check(ctx) {
    if (ctx.security === "developer") return ALLOW;
    const { branch, defaultBranch } = ctx.git;
    if (branch === null) return ALLOW;
    const onDefault =
      defaultBranch !== null
        ? branch === defaultBranch
        : branch === "main" || branch === "master";
    if (!onDefault) return ALLOW;
    const changes = gatedChanges(ctx);
    if (changes.length === 0) return ALLOW;
    const planned =
      ctx.active?.summary.meta.branch ?? ctx.state?.playbook.branch ?? null;
    const next = planned
      ? `switch to the playbook's branch: \`git switch ${planned}\` (or \`git switch -c ${planned}\` if it does not exist yet)`
      : "start with Skill(playbook-init): the playbook names the branch to create";
    return block(
      `Blocked ${describeChanges(changes)}: you are on the default branch \`${branch}\`, where work is not done directly. Next: ${next}.`,
    );
  },
};
