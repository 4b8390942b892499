import { PlaybookError } from "../core/errors.ts";

/** A GitHub API call that failed, in words that never contain the token. `status` 0: GitHub was not reached. */
export class GitHubError extends PlaybookError {
  readonly status: number;
  constructor(status: number, message: string) {
    super("E_GITHUB", message, { hint: gitHubHint(status) });
    this.name = "GitHubError";
    this.status = status;
  }
}

function gitHubHint(status: number): string {
  if (status === 0)
    return "Check the network or GITHUB_API_URL, then run the command again.";
  if (status === 401 || status === 403)
    return "Check the token in GITHUB_TOKEN or GH_TOKEN (or `gh auth login`), then run the command again.";
  return "Fix what GitHub says above, then run the command again; `--provider local` merges without GitHub.";
}
