/**
 * The GitHub token (docs/archive.md): `GITHUB_TOKEN`, then `GH_TOKEN`, then `gh auth token` (started only when neither is
 * set, and only once). Null when there is none. The token is never printed or logged by playbook.
 */
export function findGitHubToken(
  env: Readonly<Record<string, string | undefined>>,
  runGh: () => string | null = ghAuthToken,
): string | null {
  const fromEnv = env["GITHUB_TOKEN"]?.trim() || env["GH_TOKEN"]?.trim();
  if (fromEnv) return fromEnv;
  const fromGh = runGh()?.trim();
  return fromGh || null;
}

function ghAuthToken(): string | null {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result = spawnSync("gh", ["auth", "token"], {
    encoding: "utf8",
    timeout: 5000,
  });
  return result.status === 0 && !result.error ? result.stdout : null;
}
