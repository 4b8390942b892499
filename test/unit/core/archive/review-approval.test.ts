import { describe, expect, it } from "vitest";
import {
  evaluateApproval,
  type PullRequestReview,
} from "../../../../src/core/archive/review-approval.ts";

const HEAD = "a".repeat(40);
const OLD = "b".repeat(40);
const review = (
  user: string | null,
  state: string,
  commitId: string = HEAD,
): PullRequestReview => ({ user, state, commitId });

describe("evaluateApproval", () => {
  it.each<[string, PullRequestReview[], ReturnType<typeof evaluateApproval>]>([
    ["no reviews", [], { state: "waiting", stale: [] }],
    [
      "a person approves the head",
      [review("ana", "APPROVED")],
      { state: "approved", by: ["ana"] },
    ],
    [
      "the token's own user approving does not count",
      [review("playbook-bot", "APPROVED")],
      { state: "waiting", stale: [] },
    ],
    [
      "the token's own user, spelled in another case, does not count either",
      [review("Playbook-Bot", "APPROVED")],
      { state: "waiting", stale: [] },
    ],
    [
      "a later 'changes requested' by the same reviewer undoes the approval",
      [review("ana", "APPROVED"), review("ana", "CHANGES_REQUESTED")],
      { state: "changes-requested", by: ["ana"] },
    ],
    [
      "a later approval by the same reviewer lifts their request",
      [review("ana", "CHANGES_REQUESTED"), review("ana", "APPROVED")],
      { state: "approved", by: ["ana"] },
    ],
    [
      "a comment after an approval changes nothing",
      [review("ana", "APPROVED"), review("ana", "COMMENTED")],
      { state: "approved", by: ["ana"] },
    ],
    [
      "another reviewer's standing request wins over an approval",
      [review("ana", "APPROVED"), review("bo", "CHANGES_REQUESTED")],
      { state: "changes-requested", by: ["bo"] },
    ],
    [
      "a dismissed approval no longer counts",
      [review("ana", "APPROVED"), review("ana", "DISMISSED")],
      { state: "waiting", stale: [] },
    ],
    [
      "an approval of an earlier head does not approve the code pushed after it",
      [review("ana", "APPROVED", OLD)],
      { state: "waiting", stale: ["ana"] },
    ],
    [
      "a deleted account's review does not count",
      [review(null, "APPROVED")],
      { state: "waiting", stale: [] },
    ],
  ])("%s", (_, reviews, expected) => {
    expect(
      evaluateApproval(reviews, { self: "playbook-bot", headSha: HEAD }),
    ).toEqual(expected);
  });
});
