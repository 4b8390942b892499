/** One review of a pull request, as GitHub lists them (oldest first). */
export interface PullRequestReview {
  /** The reviewer's login; null for a deleted account. */
  user: string | null;
  /** APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING. */
  state: string;
  /** The head commit the review was given on. */
  commitId: string | null;
}

export type Approval =
  | { state: "approved"; by: string[] }
  | { state: "changes-requested"; by: string[] }
  /** `stale`: reviewers whose approval is of an earlier head than the one to merge. */
  | { state: "waiting"; stale: string[] };

/**
 * Whether a person approved the pull request's head `headSha`. Each reviewer's latest review that approves,
 * requests changes or was dismissed counts (comments change nothing, as on GitHub); `self`, the token's own user,
 * never counts. Any reviewer's standing "changes requested" wins over approvals, and an approval of an earlier head
 * does not approve code pushed after it.
 */
export function evaluateApproval(
  reviews: readonly PullRequestReview[],
  at: { self: string; headSha: string },
): Approval {
  const latest = new Map<string, PullRequestReview>();
  for (const review of reviews) {
    if (review.user === null) continue;
    if (review.user.toLowerCase() === at.self.toLowerCase()) continue;
    if (!["APPROVED", "CHANGES_REQUESTED", "DISMISSED"].includes(review.state))
      continue;
    latest.set(review.user.toLowerCase(), review);
  }
  const standing = [...latest.values()];
  const requested = standing.filter((r) => r.state === "CHANGES_REQUESTED");
  if (requested.length > 0)
    return { state: "changes-requested", by: requested.map(loginOf) };
  const approvals = standing.filter((r) => r.state === "APPROVED");
  const current = approvals.filter((r) => r.commitId === at.headSha);
  if (current.length > 0)
    return { state: "approved", by: current.map(loginOf) };
  return {
    state: "waiting",
    stale: approvals.map(loginOf),
  };
}

const loginOf = (review: PullRequestReview): string => review.user ?? "";
