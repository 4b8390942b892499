/** Where a GitHub repository lives: its host, owner and name. */
export interface GitHubRepository {
  host: string;
  owner: string;
  repo: string;
}

/**
 * The GitHub repository a remote URL points at: `git@github.com:o/r.git`, `https://github.com/o/r(.git)`,
 * `ssh://git@host[:port]/o/r.git`, `git://host/o/r`. Null for anything else (a local path, a URL without owner/repo).
 */
export function parseRemoteUrl(url: string): GitHubRepository | null {
  const trimmed = url.trim();
  const scp =
    /^(?:[\w.-]+@)?([\w.-]+):(?!\/)([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(
      trimmed,
    );
  const full =
    /^(?:https?|ssh|git(?:\+ssh)?):\/\/(?:[^@/]+@)?([\w.-]+)(?::\d+)?\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(
      trimmed,
    );
  const match = full ?? scp;
  if (!match) return null;
  const [, host = "", owner = "", repo = ""] = match;
  return { host: host.toLowerCase(), owner, repo };
}

/** The REST API base URL of a GitHub host: api.github.com for github.com, `/api/v3` on GitHub Enterprise Server. */
export function apiUrlFor(host: string): string {
  return host === "github.com" || host === "www.github.com"
    ? "https://api.github.com"
    : `https://${host}/api/v3`;
}

export type ProviderChoice =
  | { provider: "local"; note: string | null }
  | {
      provider: "github";
      repository: { owner: string; repo: string };
      apiUrl: string;
    }
  | { provider: null; problem: string };

/**
 * Which provider archives (docs/archive.md): `github` with a GitHub repository (the remote's URL, or `archive.repository`)
 * and a token; `local` otherwise, which is the embedded default. An explicit `github` without a token or repository
 * is a problem to report, never a silent local merge.
 */
export function chooseProvider(input: {
  configured: "auto" | "github" | "local";
  remoteUrl: string | null;
  repository: string | null;
  apiUrl: string | null;
  envApiUrl: string | null;
  hasToken: boolean;
}): ProviderChoice {
  if (input.configured === "local") return { provider: "local", note: null };
  const fromRemote = input.remoteUrl ? parseRemoteUrl(input.remoteUrl) : null;
  const configured = input.repository?.split("/");
  const repository =
    configured?.length === 2 && configured[0] && configured[1]
      ? { owner: configured[0], repo: configured[1] }
      : fromRemote && { owner: fromRemote.owner, repo: fromRemote.repo };
  const apiUrl =
    input.envApiUrl ||
    input.apiUrl ||
    (fromRemote ? apiUrlFor(fromRemote.host) : null);
  if (input.configured === "github") {
    if (!repository || !apiUrl)
      return {
        provider: null,
        problem:
          "archive.provider is github, but the remote's URL names no GitHub repository. Set archive.repository (owner/name) in .claude/playbook.json.",
      };
    if (!input.hasToken)
      return {
        provider: null,
        problem:
          "archive.provider is github, but no token was found. Set GITHUB_TOKEN or GH_TOKEN, or run `gh auth login`.",
      };
    return { provider: "github", repository, apiUrl };
  }
  if (repository && apiUrl && input.hasToken)
    return { provider: "github", repository, apiUrl };
  return {
    provider: "local",
    note: repository
      ? "no GitHub token was found (GITHUB_TOKEN, GH_TOKEN, `gh auth token`), so the branch is merged locally; set a token to merge through a pull request."
      : null,
  };
}
