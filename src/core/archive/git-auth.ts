/**
 * The setting that lets a push or fetch over https reach a GitHub remote with the archive's token (docs/archive.md):
 * an `Authorization` header for that host only, as `actions/checkout` sends it (basic, `x-access-token`). Empty for
 * another scheme or host, or without a token. The caller passes it in git's environment, never on its command line.
 *
 * @param hosts The hosts the token belongs to: github.com and those of the GitHub API URLs the user configured.
 */
export function planGitHubAuth(
  url: string | null,
  token: string | null,
  hosts: readonly string[],
): [key: string, value: string][] {
  if (url === null || token === null) return [];
  const match = /^https:\/\/(?:[^@/]*@)?([^/:]+)(?::(\d+))?\//i.exec(url);
  const host = match?.[1]?.toLowerCase();
  if (!match || !host || !hosts.includes(host)) return [];
  const origin = `https://${host}${match[2] ? `:${match[2]}` : ""}/`;
  return [
    [
      `http.${origin}.extraHeader`,
      `Authorization: basic ${btoa(`x-access-token:${token}`)}`,
    ],
  ];
}

/** The hosts a GitHub token is sent to over git: github.com, and those of the API URLs the user set. */
export function gitHubHosts(
  apiUrls: readonly (string | null | undefined)[],
): string[] {
  const hosts = new Set(["github.com"]);
  for (const url of apiUrls) {
    const host = url ? /^https?:\/\/([^/:]+)/i.exec(url)?.[1] : undefined;
    if (host)
      hosts.add(
        host.toLowerCase() === "api.github.com"
          ? "github.com"
          : host.toLowerCase(),
      );
  }
  return [...hosts];
}
