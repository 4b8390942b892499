import { readArchiveJournal } from "../adapters/archive-journal-store.ts";
import { createArchiveDeps } from "../app/deps.ts";
import { runArchive, type ArchiveOutcome } from "../app/archive/run-archive.ts";
import type { HookArchiveResult } from "../app/hook/hook-run.ts";

/** In the hook, checks are waited for at most this long: the agent's tool call waits meanwhile. */
const HOOK_CHECK_WAIT_SECONDS = 60;

/**
 * `dist/archive.cjs`: the archive workflow for the PostToolUse hook, in its own bundle so that Octokit and the parser
 * load only when an edit finishes a playbook. Never throws: the outcome, or why it did not run, comes back in words.
 */
export async function archiveFromHook(
  projectDir: string,
  session: string | null,
): Promise<HookArchiveResult> {
  const journal = readArchiveJournal(projectDir);
  if (journal.status === "ok" && journal.journal.status !== "success")
    return {
      headline: `The archive of ${journal.journal.playbook} is unfinished${journal.journal.next ? `: ${journal.journal.next}` : ""}. Run \`playbook archive --resume\`.`,
      steps: null,
    };
  try {
    const outcome = await runArchive(
      projectDir,
      {
        dryRun: false,
        resume: false,
        provider: null,
        session,
        maxCheckWaitSeconds: HOOK_CHECK_WAIT_SECONDS,
      },
      createArchiveDeps(projectDir),
    );
    return { headline: headline(outcome), steps: stepsDone(outcome) };
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
  if (outcome.status === "success")
    return `playbook archived ${journal.playbook} → ${journal.archivePath}${journal.pr ? ` (${journal.pr.url}, merged)` : ` (merged into ${journal.defaultBranch})`}; the post-loop lock is set.${left} Next: run /post-loop (\`playbook post-loop\`) to pick the next task.`;
  return `playbook started the archive of ${journal.playbook}, and it stopped: ${asSentence(outcome.steps.at(-1)?.detail ?? "")}${left} Next: ${asSentence(outcome.next ?? "run `playbook archive --resume`")}`;
}

function stepsDone(outcome: ArchiveOutcome): string {
  return outcome.steps
    .map((s) => `${s.status === "failed" ? "✗" : "✓"} ${s.id}: ${s.detail}`)
    .join("; ");
}

/** `text` ending in one full stop (the step details and next steps may or may not end with one). */
function asSentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === "" || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
