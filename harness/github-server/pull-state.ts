import {
  timestamp,
  type PullRequestState,
  type ServerState,
  type StoredCheck,
} from "./server-state.ts";

export function findPull(
  state: ServerState,
  raw: string,
): PullRequestState | undefined {
  return /^\d+$/.test(raw) ? state.pulls.get(Number(raw)) : undefined;
}

/** While open, a PR follows its branches; closed or merged, it keeps the shas it had. */
export async function refreshPull(
  state: ServerState,
  pr: PullRequestState,
): Promise<{ head: boolean; base: boolean }> {
  if (pr.state !== "open") return { head: true, base: true };
  const [head, base] = await Promise.all([
    state.git.resolveBranch(pr.head),
    state.git.resolveBranch(pr.base),
  ]);
  if (head) pr.headSha = head;
  if (base) pr.baseSha = base;
  return { head: head !== undefined, base: base !== undefined };
}

export function blockingCheck(
  state: ServerState,
  sha: string,
): StoredCheck | undefined {
  return (state.checks.get(sha) ?? []).find(
    (check) => check.state !== "success",
  );
}

export async function assessMergeability(
  state: ServerState,
  pr: PullRequestState,
): Promise<{ mergeable: boolean; state: string }> {
  if (!(await state.git.mergeTree(pr.baseSha, pr.headSha)))
    return { mergeable: false, state: "dirty" };
  if (pr.draft) return { mergeable: true, state: "draft" };
  if (blockingCheck(state, pr.headSha))
    return { mergeable: true, state: "blocked" };
  return { mergeable: true, state: "clean" };
}

/** Closes a PR as a person would on github.com (state closed, not merged). */
export function closePullRequest(state: ServerState, number: number): void {
  const pr = state.pulls.get(number);
  if (!pr) throw new Error(`no pull request #${number}`);
  if (pr.state !== "open") return;
  pr.headSha = state.git.resolveBranchSync(pr.head) ?? pr.headSha;
  pr.baseSha = state.git.resolveBranchSync(pr.base) ?? pr.baseSha;
  const now = timestamp();
  Object.assign(pr, { state: "closed", closedAt: now, updatedAt: now });
}
