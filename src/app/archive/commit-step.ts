import { statSync } from "node:fs";
import { join } from "node:path";
import { readBounded } from "../../adapters/read-bounded.ts";
import { scanForSecrets } from "../../adapters/secret-scan.ts";
import {
  readWrittenFiles,
  removeWrittenFiles,
} from "../../adapters/written-files-store.ts";
import {
  pathsOf,
  selectCommit,
  type CommitSelection,
} from "../../core/archive/commit-selection.ts";
import { isConflict } from "../../core/archive/git-status.ts";
import type { ArchiveJournal, StepResult } from "../../core/archive/journal.ts";
import { describeSecretFinding } from "../../core/archive/secrets.ts";
import { writtenListPath } from "../../core/archive/written-files.ts";
import {
  done,
  RESUME,
  skipped,
  StepFailure,
  type StepContext,
  type StepOutcome,
} from "./step-kit.ts";

/** A file about to be committed is read this far for the secret scan; the push step scans its whole patch. */
const MAX_SCANNED_BYTES = 1024 * 1024;

/**
 * Step 1 (docs/archive.md): on the playbook's branch, commits exactly the work: tracked changes, staged files, the
 * files the agent wrote with its file tools while the playbook was active, and the playbook's bookkeeping. Every
 * other untracked file is left where it is and named. What is committed passes the secret scan first. Both lists go
 * to the journal (`files`). Until the push, a resume commits what was staged or written since.
 */
export async function commitWork(ctx: StepContext): Promise<StepOutcome> {
  const { git, journal } = ctx;
  const committedBefore = isSettled(journal.steps["commit"]);
  if (committedBefore && isSettled(journal.steps["push"]))
    return skipped("committed before");
  const status = await git.status();
  const { branch } = status;
  if (committedBefore && branch !== journal.branch)
    return skipped("committed before");
  if (branch === null)
    throw new StepFailure(
      "HEAD is detached, so there is no branch to commit on.",
      `\`git switch ${journal.branch}\`, ${RESUME}.`,
    );
  const written = readWrittenFiles(ctx.root, journal.playbook);
  if (written.status === "unusable")
    throw new StepFailure(
      `the list of files the agent wrote is unusable: ${written.problem}.`,
      `in your terminal, move it away (\`mv ${writtenListPath(journal.playbook)} ${writtenListPath(journal.playbook)}.bad\`); the files it named are then left alone unless you stage them (\`git add <path>\`), ${RESUME}. Nothing was committed.`,
    );
  const selection = selectCommit(
    status.entries,
    journal.playbook,
    new Set(written.status === "ok" ? written.paths : []),
  );
  const changes = selection.commit;
  if (branch !== journal.branch) {
    if (changes.length === 0 && (await git.resolve(journal.branch)) !== null)
      return skipped("nothing to commit");
    throw new StepFailure(
      `git is on \`${branch}\`, not on the playbook's branch \`${journal.branch}\`${changes.length > 0 ? ` and ${changes.length} files have uncommitted changes` : ""}.`,
      `\`git switch ${journal.branch}\` (uncommitted changes come along), ${RESUME}.`,
    );
  }
  const committed = journal.files?.committed ?? [];
  if (changes.length === 0) {
    journal.files = { committed, leftAlone: selection.leftAlone };
    return skipped(
      `nothing ${committedBefore ? "more " : ""}to commit${leftAloneNote(selection)}`,
    );
  }
  const conflicts = changes.filter(isConflict);
  if (conflicts.length > 0)
    throw new StepFailure(
      `${conflicts.map((c) => c.path).join(", ")} ${conflicts.length === 1 ? "has" : "have"} unresolved merge conflicts.`,
      `resolve them and \`git add\` them, ${RESUME}.`,
    );
  await refuseSecrets(ctx, selection);
  const paths = pathsOf(changes);
  // What is staged already stays as it is: `git add` of a path whose removal is staged matches nothing and fails.
  await git.addAll(
    changes.filter((c) => c.worktree !== " ").map((c) => c.path),
  );
  const sha = await git.commit(`feat(${nameOf(journal)}): ${journal.title}`);
  journal.files = {
    committed:
      sha === null ? committed : [...new Set([...committed, ...paths])].sort(),
    leftAlone: selection.leftAlone,
  };
  if (sha === null)
    return skipped(`nothing to commit${leftAloneNote(selection)}`);
  // Committed: the list has served. A write from now on starts a new one, which a resume before the push commits.
  removeWrittenFiles(ctx.root, journal.playbook);
  return done(
    `${paths.length} file${paths.length === 1 ? "" : "s"} (${sha.slice(0, 7)}): ${paths.join(", ")}${leftAloneNote(selection)}`,
  );
}

/** Stops before anything is staged when a file about to be committed holds what looks like a secret. */
async function refuseSecrets(
  ctx: StepContext,
  selection: CommitSelection,
): Promise<void> {
  const files = selection.commit
    .filter((c) => c.worktree !== "D" && c.index !== "D")
    .map((c) => ({ path: c.path, content: readText(join(ctx.root, c.path)) }));
  const found = await ctx.meter.check("secrets", () => scanForSecrets(files));
  if (found.length === 0) return;
  throw new StepFailure(
    `${found.length === 1 ? "this looks like a secret" : "these look like secrets"}, so nothing was committed: ${found.map(describeSecretFinding).join("; ")}.`,
    `take the value out of the file (read it from the environment, or from a file listed in .gitignore); a test fixture that only looks like a secret can be built from parts at run time. ${RESUME.replace(/^then /, "Then ")}. Nothing was committed or deleted.`,
  );
}

/** The files left alone, with what to do about them; empty when there are none. */
function leftAloneNote(selection: CommitSelection): string {
  const { leftAlone } = selection;
  if (leftAlone.length === 0) return "";
  return `; left alone, not committed (untracked, not staged, not written by the agent's file tools): ${leftAlone.join(", ")}. To publish one, stage it (\`git add <path>\`) and run \`playbook archive --resume\` before the archive pushes, or commit it with the next task; to keep it on this machine, add it to .gitignore; else delete it`;
}

function isSettled(result: StepResult | undefined): boolean {
  return result?.status === "done" || result?.status === "skipped";
}

/** `plan/playbook-login.md` → `login`, the scope of the archive's commit messages. */
export function nameOf(journal: ArchiveJournal): string {
  return journal.playbook.replace(/^.*\/playbook-/, "").replace(/\.md$/, "");
}

/** A file's text for the secret scan, up to 1 MiB; null when it is missing, a folder or binary. */
function readText(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    const text = readBounded(path, MAX_SCANNED_BYTES).text;
    return text.includes("\0") ? null : text;
  } catch {
    return null;
  }
}
