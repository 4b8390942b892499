import { afterEach, expect } from "vitest";
import {
  startGitHubServer,
  type GitHubServer,
} from "../../harness/github-server.ts";

/** The token the local GitHub servers of the archive tests accept. */
export const GITHUB_TEST_TOKEN = "ghp_testtoken0123456789abcdefghijklmnopqr";

/**
 * Local GitHub servers for `acme/app`, one per call, each serving the bare repository given. After each test every
 * server started is closed, and none may have seen a request or reply that breaks GitHub's schema.
 */
export function useGitHubServers(): (bare: string) => Promise<GitHubServer> {
  let servers: GitHubServer[] = [];
  afterEach(async () => {
    const started = servers;
    servers = [];
    for (const server of started) await server.close();
    for (const server of started) expect(server.violations).toEqual([]);
  });
  return async (bare) => {
    const server = await startGitHubServer({
      bare,
      owner: "acme",
      repo: "app",
      token: GITHUB_TEST_TOKEN,
    });
    servers.push(server);
    return server;
  };
}
