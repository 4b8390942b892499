import { example } from "./openapi.ts";
import { apiRepo, htmlRepo } from "./payloads.ts";
import { findPull } from "./pull-state.ts";
import { error, type Reply } from "./replies.ts";
import { timestamp, type ServerState } from "./server-state.ts";

// pulls/list-reviews, with reviews a person gives after the archive has asked a number of times (scripted by
// `scriptReview`): each listing counts as one poll.

let nextReviewId = 80;

export function listReviews(
  state: ServerState,
  raw: string,
  query: Record<string, string>,
): Promise<Reply> {
  const pr = findPull(state, raw);
  if (!pr) return Promise.resolve(error(404, "Not Found"));
  const polls = (state.reviewPolls.get(pr.number) ?? 0) + 1;
  state.reviewPolls.set(pr.number, polls);
  const reviews = state.reviews.get(pr.number) ?? [];
  for (const scripted of state.scriptedReviews.filter(
    (r) => r.number === pr.number && r.afterPolls < polls,
  )) {
    state.scriptedReviews.splice(state.scriptedReviews.indexOf(scripted), 1);
    reviews.push({
      id: nextReviewId++,
      user: scripted.user,
      state: scripted.state,
      commitId: pr.headSha,
      at: timestamp(),
    });
  }
  state.reviews.set(pr.number, reviews);
  const perPage = Math.min(
    100,
    Math.max(1, Number(query.per_page ?? 30) || 30),
  );
  const page = Math.max(1, Number(query.page ?? 1) || 1);
  const template = example("pull-request-review-items");
  const first = (Array.isArray(template) ? template[0] : template) as Record<
    string,
    unknown
  >;
  const user = first.user as Record<string, unknown>;
  const body = reviews
    .slice((page - 1) * perPage, page * perPage)
    .map((review) => ({
      ...first,
      id: review.id,
      node_id: Buffer.from(`017:PullRequestReview${review.id}`).toString(
        "base64",
      ),
      user: { ...user, login: review.user },
      body: review.state === "APPROVED" ? "Looks good." : "Please change this.",
      state: review.state,
      html_url: `${htmlRepo(state)}/pull/${pr.number}#pullrequestreview-${review.id}`,
      pull_request_url: `${apiRepo(state)}/pulls/${pr.number}`,
      _links: {
        html: {
          href: `${htmlRepo(state)}/pull/${pr.number}#pullrequestreview-${review.id}`,
        },
        pull_request: { href: `${apiRepo(state)}/pulls/${pr.number}` },
      },
      submitted_at: review.at,
      commit_id: review.commitId,
    }));
  return Promise.resolve({ status: 200, body });
}
