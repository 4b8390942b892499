import {
  startGitHubServer,
  type GitHubServer,
} from "../harness/github-server.ts";
import type { GoldenPathOptions } from "./golden-path.ts";

/** The repository the local GitHub serves the sample project as. */
export const LOCAL_GITHUB_REPOSITORY = { owner: "acme", repo: "calc" };

export interface LocalGitHub {
  /** The options that make the archive use the GitHub provider against the local server. */
  options: Pick<GoldenPathOptions, "config" | "prepare">;
  /** The server, once `prepare` has started it. */
  server(): GitHubServer | null;
}

/**
 * The archive's GitHub provider pointed at the tests' GitHub-compatible server, which serves the sample project's
 * bare remote as acme/calc and performs real merges in it. `env` (the world's environment) gets the token and the
 * API URL when the server starts.
 */
export function useLocalGitHub(
  env: Record<string, string | undefined>,
  token: string,
): LocalGitHub {
  let server: GitHubServer | null = null;
  return {
    server: () => server,
    options: {
      config: {
        archive: {
          provider: "github",
          repository: `${LOCAL_GITHUB_REPOSITORY.owner}/${LOCAL_GITHUB_REPOSITORY.repo}`,
          checkWaitSeconds: 0,
        },
      },
      prepare: async (project) => {
        server = await startGitHubServer({
          bare: project.remoteDir,
          ...LOCAL_GITHUB_REPOSITORY,
          token,
        });
        env["GITHUB_TOKEN"] = token;
        env["GITHUB_API_URL"] = server.url;
      },
    },
  };
}
