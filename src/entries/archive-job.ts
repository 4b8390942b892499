import { readArchiveJournal } from "../adapters/archive-journal-store.ts";
import { createArchiveDeps } from "../app/deps.ts";
import { runArchive, type ArchiveOutcome } from "../app/archive/run-archive.ts";
import type { HookArchiveResult } from "../app/hook/hook-run.ts";
import { toGateProgressLine } from "../core/archive/final-gate.ts";

/** In the hook, checks are waited for at most this long: the agent's tool call waits meanwhile. */
const HOOK_CHECK_WAIT_SECONDS = 60;
/**
 * The final gate's share of the PostToolUse hook's 180 s (hooks/hooks.json), beside the wait for checks and the git
 * work: past it the archive stops before pushing, and `playbook archive --resume`, a job outside the hook's time, goes on.
 */
const HOOK_GATE_SECONDS = 90;

/**
 * `dist/archive.cjs`: the archive workflow for the PostToolUse hook, in its own bundle so that Octokit and the parser
 * load only when an edit finishes a playbook. Never throws: the outcome, or why it did not run, comes back in words.
 */
export async function archiveFromHook(
  projectDir: string,
  session: string | null,
): Promise<HookArchiveResult> {
  const journal = readArchiveJournal(projectDir);
  if (journal.status === "ok" && journal.journal.status === "pending")
    return {
      headline: `The archive of ${journal.journal.playbook} waits for its merge: ${journal.journal.pending?.what ?? "see `playbook status`"}. Next: ${journal.journal.next ?? "run `playbook archive --resume`"}.`,
      steps: null,
    };
  if (journal.status === "ok" && journal.journal.status !== "success")
    return {
      headline: `The archive of ${journal.journal.playbook} is unfinished${journal.journal.next ? `: ${journal.journal.next}` : ""}. Run \`playbook archive --resume\`.`,
      steps: null,
    };
  const gate: string[] = [];
  try {
    const outcome = await runArchive(
      projectDir,
      {
        dryRun: false,
        resume: false,
        provider: null,
        session,
        maxCheckWaitSeconds: HOOK_CHECK_WAIT_SECONDS,
        onGateRow: (row) => gate.push(toGateProgressLine(row)),
        gateBudgetSeconds: HOOK_GATE_SECONDS,
      },
      createArchiveDeps(projectDir),
    );
    return { headline: headline(outcome), steps: stepsDone(outcome, gate) };
  } catch (error) {
    return {
      headline: `The playbook is finished, but the archive did not start: ${error instanceof Error ? error.message : String(error)}`,
      steps: null,
    };
  }
}

function headline(outcome: ArchiveOutcome): string {
  const { journal } = outcome;
  // The user sees the headline, not the steps: files the commit left out are named there too.
  const leftAlone = journal.files?.leftAlone ?? [];
  const left =
    leftAlone.length > 0
      ? ` Left alone, not committed: ${leftAlone.join(", ")}.`
      : "";
  if (outcome.status === "pending" && journal.pending)
    return `playbook archived ${journal.playbook} → ${journal.archivePath}; the merge is pending: ${journal.pending.what}. The post-loop lock is set (pending).${left} Next: ${asSentence(journal.pending.next)} Tell the user; /post-loop (\`playbook post-loop\`) lifts the lock to pick the next task meanwhile.`;
  if (outcome.status === "success")
    return `playbook archived ${journal.playbook} → ${journal.archivePath}${journal.pr ? ` (${journal.pr.url}, merged)` : ` (merged into ${journal.defaultBranch})`}; the post-loop lock is set.${left} Next: run /post-loop (\`playbook post-loop\`) to pick the next task.`;
  return `playbook started the archive of ${journal.playbook}, and it stopped: ${asSentence(outcome.steps.at(-1)?.detail ?? "")}${left} Next: ${asSentence(outcome.next ?? "run `playbook archive --resume`")}`;
}

/** Each step's line; the final gate's validations, one each, come before the push step they belong to. */
function stepsDone(outcome: ArchiveOutcome, gate: readonly string[]): string {
  return outcome.steps
    .flatMap((s) => [
      ...(s.id === "push" && gate.length > 0
        ? [`final gate: ${gate.join(", ")}`]
        : []),
      `${s.status === "failed" ? "✗" : "✓"} ${s.id}: ${s.detail}`,
    ])
    .join("; ");
}

/** `text` ending in one full stop (the step details and next steps may or may not end with one). */
function asSentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === "" || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
