/** `archive.merge` (docs/archive.md#merge-policies): who merges the finished work. */
export const MERGE_POLICIES = [
  "auto",
  "auto-when-green",
  "on-approval",
  "open",
] as const;
export type MergePolicy = (typeof MERGE_POLICIES)[number];

/** What an archive waits for when its policy left the merge to GitHub or a person. */
export const PENDING_KINDS = [
  "approval",
  "auto-merge",
  "merge-queue",
  "person",
] as const;
export type PendingKind = (typeof PENDING_KINDS)[number];

/** What is pending, in words for the lock and `playbook status`, and what comes next. */
export interface PendingMerge {
  kind: PendingKind;
  what: string;
  next: string;
}

const RESUME_CLEANS =
  "then `playbook archive --resume` cleans up and sets the lock to success";

/**
 * The words for a merge left pending. `pr` is the pull request (GitHub), null for the local provider, which has
 * none; `remote` the git remote the branch was pushed to, if any.
 */
export function describePending(
  kind: PendingKind,
  at: {
    pr: { number: number; url: string } | null;
    branch: string;
    defaultBranch: string;
    remote: string | null;
  },
): PendingMerge {
  const { pr, branch, defaultBranch, remote } = at;
  if (pr === null) {
    const push =
      remote === null ? "" : ` && git push ${remote} ${defaultBranch}`;
    return {
      kind,
      what: `${branch} is ${remote === null ? "committed" : `pushed to ${remote}`} and not merged: a person merges it into ${defaultBranch}`,
      next: `review it, merge it (\`git switch ${defaultBranch} && git merge --no-ff ${branch}${push}\`), ${RESUME_CLEANS}`,
    };
  }
  const see = `see it at ${pr.url}`;
  switch (kind) {
    case "approval":
      return {
        kind,
        what: `#${pr.number} waits for a person's approving review`,
        next: `${see}; once a person approved it, \`playbook archive --resume\` merges it`,
      };
    case "auto-merge":
      return {
        kind,
        what: `GitHub's auto-merge is on for #${pr.number}: GitHub merges it once its required checks pass`,
        next: `${see}; once GitHub merged it, ${RESUME_CLEANS.replace(/^then /, "")}`,
      };
    case "merge-queue":
      return {
        kind,
        what: `#${pr.number} is in the merge queue of ${defaultBranch}: GitHub merges it once the queue's checks pass`,
        next: `${see}; once GitHub merged it, ${RESUME_CLEANS.replace(/^then /, "")}`,
      };
    case "person":
      return {
        kind,
        what: `#${pr.number} is open for a person to review and merge`,
        next: `${see}; once it is merged, ${RESUME_CLEANS.replace(/^then /, "")}`,
      };
  }
}
