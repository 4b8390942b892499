import { locationAt, PlaybookError } from "../errors.ts";
import type { PlaybookSummary } from "../model/summary.ts";

// What the archive checks before it plans a single step: a playbook it can read in full, every claim proved, and a
// branch of its own to merge. Each refusal changes nothing and says what to do.

/**
 * Refuses a playbook with lint errors: the archive takes only a playbook it can read in full.
 *
 * @throws PlaybookError E_CONFIG naming the first error.
 */
export function assertLintClean(path: string, playbook: PlaybookSummary): void {
  const firstError = playbook.diagnostics.find((d) => d.severity === "error");
  if (firstError)
    throw new PlaybookError(
      "E_CONFIG",
      `${path} has lint errors, first: ${firstError.message}`,
      {
        hint: "Run `playbook lint` and fix them: the archive takes only a playbook it can read in full.",
        location: locationAt(firstError.file, firstError),
      },
    );
}

/**
 * Refuses a playbook with claims whose proof is missing or stale (`missing`, from `findMissingProof`).
 *
 * @throws PlaybookError E_CONFIG naming the first five.
 */
export function assertFinished(path: string, missing: readonly string[]): void {
  if (missing.length > 0)
    throw new PlaybookError(
      "E_CONFIG",
      `${path} is not finished: ${missing.slice(0, 5).join("; ")}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ""}.`,
      {
        hint: "`playbook status` shows the next step; the archive starts by itself once the last box is ticked with its proof.",
      },
    );
}

/**
 * The branch the archive merges: the playbook's own (`branch:` in its meta, else state.md's).
 *
 * @throws PlaybookError E_CONFIG when there is none.
 */
export function archiveBranch(
  path: string,
  fromPlaybook: string | null | undefined,
  fromState: string | null | undefined,
): string {
  const branch = fromPlaybook ?? fromState;
  if (!branch)
    throw new PlaybookError("E_CONFIG", `${path} names no branch.`, {
      hint: "Set `branch:` in its `## meta`.",
    });
  return branch;
}

/**
 * Refuses to merge the default branch into itself.
 *
 * @throws PlaybookError E_CONFIG when the playbook's branch is the default branch.
 */
export function assertMergeable(
  path: string,
  branch: string,
  defaultBranch: string,
): void {
  if (branch === defaultBranch)
    throw new PlaybookError(
      "E_CONFIG",
      `${path}'s branch is the default branch \`${branch}\`; there is nothing to merge.`,
      {
        hint: "Set `branch:` in its `## meta` to the task's own branch (`playbook new` makes one), and work there.",
      },
    );
}
