import type { PlaybookSummary } from "../model/summary.ts";
import { planGate } from "../records/plan-gate.ts";
import type { PlaybookRecord } from "../records/record.ts";
import {
  ALLOW,
  block,
  context,
  describeChanges,
  gatedChanges,
} from "./facts.ts";
import type { Guard, GuardContext, GuardResult } from "./types.ts";

/** The newest review of `path`, and whether it approves exactly `playbook` as it is now. */
export function reviewState(
  ctx: GuardContext,
  path: string,
  playbook: PlaybookSummary,
): { record: PlaybookRecord | null; current: boolean } {
  const record = ctx.records.latest({
    kind: "review",
    playbook: path,
    target: "playbook",
  });
  return {
    record,
    current:
      record !== null &&
      record.verdict === "approve" &&
      record.contentHash === playbook.hashes.review,
  };
}

/**
 * docs/guards.md #4, the playbook gate (every mode): changes outside `state.md`/`plan/**` need an active playbook whose
 * `reviewed: true` is backed by a current review record and which has a `## context`. It also refuses a
 * `reviewed: true` typed into a playbook without such a record.
 */
export const playbookGuard: Guard = {
  id: "playbook",
  number: 4,
  events: ["PreToolUse"],
  check(ctx) {
    return checkForgedReview(ctx) ?? checkGate(ctx);
  },
};

function checkForgedReview(ctx: GuardContext): GuardResult | null {
  for (const change of ctx.changes) {
    const doc = change.document;
    if (doc?.kind !== "playbook" || !doc.after || change.path === null)
      continue;
    if (!doc.after.meta.reviewed || doc.before?.meta.reviewed) continue;
    if (reviewState(ctx, change.path, doc.after).current) continue;
    return block(
      `Blocked: this edit sets \`reviewed: true\` in \`${change.path}\`, but no current review record approves this plan. Only the reviewer records a review. Next: leave \`reviewed: false\` and have the reviewer subagent review the playbook; it runs \`playbook review approve\`, which sets the flag.`,
    );
  }
  return null;
}

function checkGate(ctx: GuardContext): GuardResult {
  const changes = gatedChanges(ctx);
  if (changes.length === 0) return ALLOW;
  const what = `Blocked ${describeChanges(changes)}:`;
  if (ctx.stateProblem)
    return block(
      `${what} ${ctx.stateProblem} Next: fix state.md (it is always editable; plan/template/state-initial.md is a clean copy), then retry.`,
    );
  const archive = ctx.unfinishedArchive;
  if (
    !ctx.state?.playbook.active &&
    archive &&
    ctx.git.branch === archive.branch
  )
    return context(
      `playbook: the archive of \`${archive.playbook}\` stopped before merging, so fixes on \`${archive.branch}\` are allowed. Commit them (the archive pushes), then run \`playbook archive --resume\`.`,
    );
  if (!ctx.state?.playbook.active)
    return block(
      `${what} no playbook is active, and work starts with a plan. Next: run Skill(playbook-init): the pm subagent writes plan/playbook-<name>.md and sets \`active\` in state.md; the reviewer approves it.`,
    );
  if (ctx.activeProblem || !ctx.active)
    return block(
      `${what} ${ctx.activeProblem ?? "the active playbook cannot be read."} Next: fix \`active\` in state.md or the playbook, then retry.`,
    );
  const { path, summary } = ctx.active;
  const gate = planGate(path, summary, ctx.records);
  if (!gate.open) return block(`${what} ${gate.reason} Next: ${gate.next}`);
  return ALLOW;
}
