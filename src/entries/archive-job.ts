import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readArchiveJournal } from "../adapters/archive-journal-store.ts";
import { readJob, startTrustedJob } from "../adapters/trusted-job.ts";
import type { HookArchiveResult } from "../app/hook/hook-run.ts";
import { readConfig } from "../app/workspace/read-config.ts";
import type { ArchiveJournal } from "../core/archive/journal.ts";

const POLL_MS = 100;
/** Colour codes the CLI writes when `CI` or `FORCE_COLOR` is set in the hook's environment. */
const ANSI_SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/**
 * `dist/archive.cjs`: what the PostToolUse hook does when an edit finishes the active playbook. The archive runs as a
 * trusted job of its own (`playbook archive`, outside the agent's sandbox and outside the hook's 180 s), and the hook
 * waits for it up to `archive.hookWaitSeconds`: then the model reads the outcome as before. A longer archive (a slow
 * final gate, a wait for checks) goes on alone, and the model gets the command that follows it to its end. Never
 * throws: the outcome, or why it did not run, comes back in words.
 */
export async function archiveFromHook(
  projectDir: string,
  session: string | null,
  distDir: string,
  now: () => Date = () => new Date(),
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
  const before = journal.status === "ok" ? journal.journal.id : null;
  const started = now();
  let job;
  try {
    job = startTrustedJob({
      projectDir,
      distDir,
      cwd: projectDir,
      id: `archive-${started.getTime().toString(36)}`,
      // One word, so no session id is ever read as an option of its own.
      args: ["archive", ...(session === null ? [] : [`--session=${session}`])],
      now: started,
      startNow: true,
    });
  } catch (error) {
    return {
      headline: `The playbook is finished, but the archive did not start: ${error instanceof Error ? error.message : String(error)}. Next: run \`playbook archive\`.`,
      steps: null,
    };
  }
  const waitMs = readConfig(projectDir).config.archive.hookWaitSeconds * 1000;
  const state = await waitForJob(job.jobDir, waitMs, started.getTime(), now);
  if (state === null)
    return {
      headline: `The playbook is finished; its archive runs as a job outside this hook (the final gate re-proves the commit before it is pushed), and it has not finished yet. Next: run \`${job.display}\` in Bash: it prints each step as the archive takes it and exits with the archive's exit code; then tell the user how it ended.`,
      steps: null,
    };
  const output = jobOutput(job.jobDir);
  const after = readArchiveJournal(projectDir);
  const ran =
    after.status === "ok" && after.journal.id !== before ? after.journal : null;
  if (ran === null)
    return {
      headline: `The playbook is finished, but the archive did not start: ${asSentence(output.at(-1) ?? `it exited with ${state}`)} Next: fix that, then run \`playbook archive\`.`,
      steps: null,
    };
  return {
    headline: headline(ran),
    steps: output.length > 0 ? output.join("; ") : null,
  };
}

/** The job's exit code once it ends within `waitMs`, or null while it still runs. */
async function waitForJob(
  jobDir: string,
  waitMs: number,
  startedAt: number,
  now: () => Date,
): Promise<number | null> {
  for (;;) {
    const state = readJob(jobDir, now().getTime());
    if (state?.exitCode !== null && state?.exitCode !== undefined)
      return state.exitCode;
    if (state?.gone === true) return 1;
    if (now().getTime() - startedAt >= waitMs) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A step's line in `playbook archive`'s output: its mark, its id (padded) and what it did. */
const STEP_LINE = /^([✓✗·]) ([a-z][a-z-]*) (.*)$/;

/**
 * The job's output lines, without colour codes and blank lines, each step's as `✓ commit: …` and each validation of
 * the final gate as `final gate: ✓ p1.1 technical: …`: the form the model read when the archive ran in the hook.
 */
function jobOutput(jobDir: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(jobDir, "output"), "utf8");
  } catch {
    return [];
  }
  return text
    .replace(ANSI_SGR, "")
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")
    .map((line) => {
      const step = STEP_LINE.exec(line);
      if (step === null) return line;
      const [, mark, id, rest] = step;
      return id === "final-gate"
        ? `final gate: ${rest}`
        : `${mark} ${id}: ${rest}`;
    });
}

function headline(journal: ArchiveJournal): string {
  // The user sees the headline, not the steps: files the commit left out are named there too.
  const leftAlone = journal.files?.leftAlone ?? [];
  const left =
    leftAlone.length > 0
      ? ` Left alone, not committed: ${leftAlone.join(", ")}.`
      : "";
  if (journal.status === "pending" && journal.pending)
    return `playbook archived ${journal.playbook} → ${journal.archivePath}; the merge is pending: ${journal.pending.what}. The post-loop lock is set (pending).${left} Next: ${asSentence(journal.pending.next)} Tell the user; /post-loop (\`playbook post-loop\`) lifts the lock to pick the next task meanwhile.`;
  if (journal.status === "success")
    return `playbook archived ${journal.playbook} → ${journal.archivePath}${journal.pr ? ` (${journal.pr.url}, merged)` : ` (merged into ${journal.defaultBranch})`}; the post-loop lock is set.${left} Next: run /post-loop (\`playbook post-loop\`) to pick the next task.`;
  const failed = Object.values(journal.steps).find(
    (s) => s.status === "failed",
  );
  return `playbook started the archive of ${journal.playbook}, and it stopped: ${asSentence(failed?.detail ?? "")}${left} Next: ${asSentence(journal.next ?? "run `playbook archive --resume`")}`;
}

/** `text` ending in one full stop (the step details and next steps may or may not end with one). */
function asSentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === "" || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
