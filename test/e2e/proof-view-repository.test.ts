import { describe, expect, it } from "vitest";
import {
  GITHUB_TEST_TOKEN,
  useGitHubServers,
} from "../helpers/github-servers.ts";
import {
  createParallelWorktrees,
  PARALLEL_GITHUB_CONFIG,
  type Worktree,
} from "../helpers/parallel-worktrees.ts";
import { useProofViews } from "../helpers/proof-view.ts";
import { runCliAsync } from "../helpers/run-cli.ts";

// The proof page of a repository worked on by parallel sessions: every worktree with its playbook and progress, the
// archived playbooks with their pull requests, and an archive that stopped with its journal, followed live.

const startServer = useGitHubServers();
const views = useProofViews();

function archive(tree: Worktree, env: Record<string, string>) {
  return runCliAsync(["archive", "--provider", "github", "--cwd", tree.dir], {
    env: { ...env, CLAUDE_CODE_SESSION_ID: `session-${tree.name}` },
  });
}

describe("playbook view of a repository with parallel worktrees", () => {
  it("shows each worktree's progress, each archive's pull request and a stopped archive's journal, without a reload", async () => {
    // Both tasks write the same file: the second archive to merge stops on the conflict.
    const repo = createParallelWorktrees(["login", "divide"], {
      files: PARALLEL_GITHUB_CONFIG,
      work: (name) => ({
        "src/shared.ts": `export const owner = "${name}";\n`,
      }),
    });
    const [login, divide] = repo.worktrees;
    if (!login || !divide) throw new Error("two worktrees expected");
    const server = await startServer(repo.remoteDir);
    const env = { GITHUB_TOKEN: GITHUB_TEST_TOKEN, GITHUB_API_URL: server.url };

    const browser = await views.browser();
    const page = await browser.newPage();
    await page.goto(await views.view(login.dir));
    const row = (tree: { dir: string }) =>
      page.locator(`tr[data-worktree="${tree.dir}"]`);

    // Every working tree of the repository, this one marked, each with its playbook and how far it got.
    await expect.poll(() => page.locator("tr[data-worktree]").count()).toBe(3);
    expect(await row(login).getAttribute("data-here")).not.toBeNull();
    expect(await row(login).textContent()).toContain("plan/playbook-login.md");
    expect(await row(divide).textContent()).toContain(
      "plan/playbook-divide.md",
    );
    expect(await row(divide).locator(".progress").textContent()).toBe(
      "3/3 ticked, 3/3 proven",
    );
    expect(await row(repo.main).textContent()).toContain("no active playbook");
    expect(await page.locator("[data-archived]").count()).toBe(0);

    // The other worktree archives: its pull request is merged, and the page follows without a reload.
    const first = await archive(divide, env);
    expect(first.stdout).toContain("archived plan/playbook-divide.md");
    expect(first.status).toBe(0);
    const divided = page.locator(
      'tr[data-archived="plan/archive/playbook-divide.md"]',
    );
    // The page follows each step as it lands; the archive's last write says it merged.
    await expect
      .poll(() => divided.locator("td.status").textContent(), {
        timeout: 30_000,
      })
      .toBe("merged");
    expect(await divided.locator("td.pr a").textContent()).toBe("#1");
    expect(await divided.locator("td.pr a").getAttribute("href")).toBe(
      "https://github.com/acme/app/pull/1",
    );
    expect(await divided.textContent()).toContain(divide.dir);
    await expect
      .poll(() => row(divide).textContent(), { timeout: 30_000 })
      .toContain("post-loop lock set");
    expect(await row(divide).textContent()).toContain("no active playbook");

    // This worktree's archive stops on the conflict: the page shows its journal, where it stopped and what next.
    const second = await archive(login, env);
    expect(second.status).toBe(1);
    const journal = page.locator("[data-archive]");
    await expect
      .poll(() => journal.getAttribute("data-archive"), { timeout: 30_000 })
      .toBe("partial");
    expect(
      await page.locator('tr[data-step="push"]').getAttribute("class"),
    ).toBe("done");
    expect(
      await page.locator('tr[data-step="merge"]').getAttribute("class"),
    ).toBe("failed");
    expect(
      await page.locator('tr[data-step="lock"]').getAttribute("class"),
    ).toBe("not-yet");
    expect(await page.locator("[data-next]").textContent()).toContain(
      "resolve the conflicts in src/shared.ts",
    );
    expect(await journal.locator("h3 a").getAttribute("href")).toBe(
      "https://github.com/acme/app/pull/2",
    );
    // Moved to plan/archive/ before the merge: listed with its pull request, as stopped.
    const stopped = page.locator(
      'tr[data-archived="plan/archive/playbook-login.md"]',
    );
    expect(await stopped.locator("td.pr a").textContent()).toBe("#2");
    expect(await stopped.locator("td.status").textContent()).toBe("stopped");
    // divide's archived playbook, merged into this branch with main, is listed once: as divide's archive.
    expect(await divided.count()).toBe(1);
  }, 240_000);
});
