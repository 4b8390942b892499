import type { JsonObject } from "./openapi.ts";
import { blockingCheck, findPull, refreshPull } from "./pull-state.ts";
import { DOCS_URL, error, validationFailed, type Reply } from "./replies.ts";
import {
  timestamp,
  type PullRequestState,
  type ServerState,
} from "./server-state.ts";

// pulls/merge: a real merge, squash or rebase in the bare repository, so the archive's tests see the commits
// GitHub would make; the base branch moves by compare-and-swap. When it moved meanwhile (another merge or push),
// GitHub answers 405 "Base branch was modified. Review and try the merge again."; a head that moved from the
// `sha` the request expects is a 409.

function notMergeable(message = "Pull Request is not mergeable"): Reply {
  return { status: 405, body: { message, documentation_url: DOCS_URL } };
}

function modified(which: "Head" | "Base"): Reply {
  return {
    status: which === "Head" ? 409 : 405,
    body: {
      message: `${which} branch was modified. Review and try the merge again.`,
      documentation_url: DOCS_URL,
    },
  };
}

export async function mergePull(
  state: ServerState,
  number: string,
  input: JsonObject,
): Promise<Reply> {
  const pr = findPull(state, number);
  if (!pr) return error(404, "Not Found");
  if (pr.state !== "open") return notMergeable();
  const refs = await refreshPull(state, pr);
  if (!refs.head || !refs.base)
    return validationFailed([
      {
        resource: "PullRequest",
        field: refs.head ? "base" : "head",
        code: "invalid",
        message: `The ${refs.head ? "base" : "head"} branch ${refs.head ? pr.base : pr.head} does not exist`,
      },
    ]);
  if (typeof input.sha === "string" && input.sha !== pr.headSha)
    return modified("Head");
  if (pr.draft) return notMergeable("Pull Request is still a draft");
  const blocking = blockingCheck(state, pr.headSha);
  if (blocking)
    return notMergeable(
      `Required status check "${blocking.name}" is ${blocking.state === "pending" ? "expected" : "failing"}.`,
    );
  const method =
    typeof input.merge_method === "string" ? input.merge_method : "merge";
  const title =
    typeof input.commit_title === "string" ? input.commit_title : undefined;
  const body =
    typeof input.commit_message === "string" ? input.commit_message : undefined;
  const sha =
    method === "rebase"
      ? await rebaseCommits(state, pr)
      : await mergeCommit(state, pr, method === "squash", title, body);
  if (!sha)
    return notMergeable(
      method === "rebase" ? "This branch can't be rebased" : undefined,
    );
  if (!(await state.git.updateRef(`refs/heads/${pr.base}`, sha, pr.baseSha)))
    return modified("Base");
  const now = timestamp();
  Object.assign(pr, {
    state: "closed",
    closedAt: now,
    mergedAt: now,
    updatedAt: now,
    mergeCommitSha: sha,
  } satisfies Partial<PullRequestState>);
  return {
    status: 200,
    body: { sha, merged: true, message: "Pull Request successfully merged" },
  };
}

function mergerIdentity(owner: string): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: owner,
    GIT_AUTHOR_EMAIL: `1+${owner}@users.noreply.github.com`,
  };
}

async function mergeCommit(
  state: ServerState,
  pr: PullRequestState,
  squash: boolean,
  title: string | undefined,
  body: string | undefined,
): Promise<string | undefined> {
  const { git, owner } = state;
  const tree = await git.mergeTree(pr.baseSha, pr.headSha);
  if (!tree) return undefined;
  let message: string;
  if (squash) {
    const commits = await git.commitsBetween(pr.baseSha, pr.headSha);
    const bullets = await Promise.all(
      commits.map(
        async (sha) => `* ${(await git.readCommit(sha)).message.trim()}`,
      ),
    );
    message = `${title ?? `${pr.title} (#${pr.number})`}\n\n${body ?? bullets.join("\n\n")}`;
  } else {
    message = `${title ?? `Merge pull request #${pr.number} from ${owner}/${pr.head}`}\n\n${body ?? pr.title}`;
  }
  const parents = squash ? [pr.baseSha] : [pr.baseSha, pr.headSha];
  return git.commitTree(
    tree,
    parents,
    `${message.trimEnd()}\n`,
    mergerIdentity(owner),
  );
}

/** Replays each commit of the branch on the base, keeping its message and author. */
async function rebaseCommits(
  state: ServerState,
  pr: PullRequestState,
): Promise<string | undefined> {
  const { git } = state;
  let current = pr.baseSha;
  for (const sha of await git.commitsBetween(pr.baseSha, pr.headSha)) {
    const commit = await git.readCommit(sha);
    const parent = commit.parents[0];
    if (!parent) return undefined;
    // git 2.39's merge-tree has no --merge-base: a scratch commit of the current tree on top of the original
    // parent makes that parent the merge base, which turns the merge into a cherry-pick.
    const ours = await git.commitTree(
      `${current}^{tree}`,
      [parent],
      "rebase\n",
    );
    const tree = await git.mergeTree(ours, sha);
    if (!tree) return undefined;
    current = await git.commitTree(tree, [current], commit.message, {
      GIT_AUTHOR_NAME: commit.author.name,
      GIT_AUTHOR_EMAIL: commit.author.email,
      GIT_AUTHOR_DATE: commit.author.date,
    });
  }
  return current === pr.baseSha ? undefined : current;
}
