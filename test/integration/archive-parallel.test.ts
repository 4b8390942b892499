import { describe, expect, it } from "vitest";
import {
  GITHUB_TEST_TOKEN,
  useGitHubServers,
} from "../helpers/github-servers.ts";
import { createArchiveDeps } from "../../src/app/deps.ts";
import { runArchive } from "../../src/app/archive/run-archive.ts";
import {
  createParallelWorktrees,
  PARALLEL_GITHUB_CONFIG,
  type ParallelRepo,
  type Worktree,
} from "../helpers/parallel-worktrees.ts";
import { runCliAsync, type SpawnResult } from "../helpers/run-cli.ts";

// Parallel sessions, one per git worktree of one repository, each on its own branch with its own playbook, whose
// archives run at the same moment into the same default branch (docs/parallel-sessions.md).

const TOKEN = GITHUB_TEST_TOKEN;

const startServer = useGitHubServers();

type Provider = "local" | "github";
type Archived = SpawnResult & { tree: Worktree };

function archive(
  tree: Worktree,
  provider: Provider,
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<Archived> {
  return runCliAsync(
    ["archive", "--provider", provider, "--cwd", tree.dir, ...args],
    {
      env: {
        GITHUB_TOKEN: undefined,
        GH_TOKEN: undefined,
        GITHUB_API_URL: undefined,
        ...env,
        CLAUDE_CODE_SESSION_ID: `session-${tree.name}`,
      },
    },
  ).then((result) => ({ ...result, tree }));
}

/** The environment that points the archive at a local GitHub serving `repo`'s remote as acme/app. */
async function localGitHub(
  repo: ParallelRepo,
): Promise<Record<string, string>> {
  const server = await startServer(repo.remoteDir);
  return { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: server.url };
}

/** Every commit of each worktree's branch (as the archive left it) is on the remote's main. */
function expectNothingLost(repo: ParallelRepo): void {
  for (const tree of repo.worktrees) {
    const head = tree.git("rev-parse", tree.branch).trim();
    expect(
      () => repo.remoteGit("merge-base", "--is-ancestor", head, "main"),
      `${tree.branch} (${head}) is on origin/main`,
    ).not.toThrow();
  }
}

/** Both tasks' work and archived playbooks on the remote's main, state.md reset, nothing lost. */
function expectAllMerged(repo: ParallelRepo): void {
  const files = repo
    .remoteGit("ls-tree", "-r", "--name-only", "main")
    .split("\n");
  for (const tree of repo.worktrees) {
    for (const path of tree.work) expect(files).toContain(path);
    expect(files).toContain(`plan/archive/playbook-${tree.name}.md`);
    expect(files).not.toContain(tree.playbook);
  }
  const state = repo.remoteGit("show", "main:state.md");
  expect(state).toContain("active: null");
  expect(state).toContain("branch: null");
  expect(state).toMatch(
    new RegExp(
      `last_archived: plan/archive/playbook-(?:${repo.worktrees.map((t) => t.name).join("|")})\\.md`,
    ),
  );
  expect(state).not.toContain("<<<<<<<");
  expectNothingLost(repo);
}

/** Each worktree clean, its lock set, and left detached on a commit of main (main is checked out elsewhere). */
function expectFinished(repo: ParallelRepo, results: readonly Archived[]) {
  for (const result of results) {
    const { tree } = result;
    expect(result.stderr, tree.name).toBe("");
    expect(result.stdout, tree.name).toContain(`archived ${tree.playbook}`);
    expect(result.status, result.stdout).toBe(0);
    expect(
      JSON.parse(tree.read(".claude/playbook/post-loop.json")),
    ).toMatchObject({ status: "success", session: `session-${tree.name}` });
    expect(tree.git("status", "--porcelain").trim()).toBe("");
    expect(tree.git("branch", "--show-current").trim()).toBe("");
    const head = tree.git("rev-parse", "HEAD").trim();
    expect(() =>
      repo.remoteGit("merge-base", "--is-ancestor", head, "main"),
    ).not.toThrow();
    expect(result.stdout).toMatch(
      /✓ cleanup .*detached at origin\/main \(main is checked out in /,
    );
  }
}

describe.each<Provider>(["local", "github"])(
  "parallel sessions in worktrees, %s provider: two archives at once",
  (provider) => {
    const setup = async (
      options?: Parameters<typeof createParallelWorktrees>[1],
    ) => {
      const repo = createParallelWorktrees(["alpha", "beta"], {
        ...options,
        files: provider === "github" ? PARALLEL_GITHUB_CONFIG : {},
      });
      const env = provider === "github" ? await localGitHub(repo) : {};
      return { repo, env };
    };

    it("both end merged into main, nothing lost, and the main worktree is left as it was", async () => {
      const { repo, env } = await setup();
      const mainHead = repo.main.git("rev-parse", "HEAD").trim();
      const config = repo.main.read(".git/config");
      const results = await Promise.all(
        repo.worktrees.map((tree) => archive(tree, provider, env)),
      );
      // The repository's git settings, which every worktree shares and Claude Code's sandbox guards (a transient
      // config.lock fails the sandboxed commands of the sessions in the other worktrees), are never written.
      expect(repo.main.read(".git/config")).toBe(config);
      expectFinished(repo, results);
      expectAllMerged(repo);
      // Both branched from one commit and both rewrote state.md's bookkeeping: the later merge reconciled it.
      expect(
        results.some((r) =>
          /bookkeeping merged with main's|after merging origin\/main into/.test(
            r.stdout,
          ),
        ),
      ).toBe(true);
      // The main worktree, where the user sits on main, was not touched: its HEAD, index and files are as they were.
      expect(repo.main.git("branch", "--show-current").trim()).toBe("main");
      expect(repo.main.git("rev-parse", "HEAD").trim()).toBe(mainHead);
      expect(repo.main.git("status", "--porcelain").trim()).toBe("");
    }, 180_000);

    it("work that really conflicts: one merges, the other stops partial with a next step that, followed, ends merged", async () => {
      const { repo, env } = await setup({
        work: (name) => ({
          "src/shared.ts": `export const owner = "${name}";\n`,
        }),
      });
      const results = await Promise.all(
        repo.worktrees.map((tree) => archive(tree, provider, env)),
      );
      const merged = results.filter((r) => r.status === 0);
      const stopped = results.filter((r) => r.status !== 0);
      expect(merged.map((r) => r.tree.name)).toHaveLength(1);
      expect(stopped).toHaveLength(1);
      const [loser] = stopped;
      if (!loser) throw new Error("no archive stopped");
      const { tree } = loser;
      expect(loser.stdout).toContain(
        `${tree.branch} and origin/main changed the same lines (in src/shared.ts)`,
      );
      expect(loser.stdout).toContain(
        "partial: resolve the conflicts in src/shared.ts, `git add` them and `git commit`",
      );
      // Nothing is lost while it waits for a person: the branch is checked out and on the remote, main is being
      // merged into it with state.md's bookkeeping already reconciled, and only the work's conflict is left.
      expect(tree.git("branch", "--show-current").trim()).toBe(tree.branch);
      const status = tree.git("status", "--porcelain").split("\n");
      expect(
        status.filter((line) => /^(?:[AUD]U|U[AD]|AA|DD) /.test(line)),
      ).toEqual(["AA src/shared.ts"]);
      expect(tree.read("state.md")).not.toContain("<<<<<<<");
      expect(repo.remoteGit("rev-parse", tree.branch).trim()).toBe(
        tree.git("rev-parse", tree.branch).trim(),
      );

      tree.write("src/shared.ts", 'export const owner = "both";\n');
      tree.git("add", "src/shared.ts");
      tree.git("commit", "-q", "--no-edit");
      const resumed = await archive(tree, provider, env, "--resume");
      expect(resumed.stdout).toContain(`archived ${tree.playbook}`);
      expect(resumed.status).toBe(0);
      expect(repo.remoteGit("show", "main:src/shared.ts")).toBe(
        'export const owner = "both";\n',
      );
      expectAllMerged(repo);
    }, 180_000);
  },
);

describe("parallel sessions in worktrees, local provider: the race itself", () => {
  it("main moves between the fetch and the push: the push is refused, and the merge is made again on top", async () => {
    const repo = createParallelWorktrees(["alpha", "beta"]);
    const [alpha, beta] = repo.worktrees;
    if (!alpha || !beta) throw new Error("two worktrees");
    const deps = createArchiveDeps(beta.dir, { PATH: process.env["PATH"] });
    let raced = false;
    const outcome = await runArchive(
      beta.dir,
      { dryRun: false, resume: false, provider: "local", session: "s-beta" },
      {
        ...deps,
        git: {
          ...deps.git,
          // alpha's whole archive lands between beta's fetch and beta's push of its merge.
          pushCommit: async (remote, commit, branch) => {
            if (!raced) {
              raced = true;
              const other = await archive(alpha, "local", {});
              expect(other.status, other.stdout).toBe(0);
            }
            return deps.git.pushCommit(remote, commit, branch);
          },
        },
      },
    );
    expect(outcome.status, outcome.next ?? "").toBe("success");
    expect(outcome.steps.find((s) => s.id === "merge")?.detail).toBe(
      "feat/beta merged into main (--no-ff), state.md's bookkeeping merged with main's, merged again on top of main, which moved 1x, pushed to origin",
    );
    expectAllMerged(repo);
    expect(repo.remoteGit("show", "main:state.md")).toContain(
      "last_archived: plan/archive/playbook-beta.md",
    );
  }, 120_000);

  it("no remote, main checked out in the main worktree: it stops before moving it, and the next step ends merged", async () => {
    const repo = createParallelWorktrees(["alpha"], { remote: false });
    const [alpha] = repo.worktrees;
    if (!alpha) throw new Error("one worktree");
    const stopped = await archive(alpha, "local", {});
    expect(stopped.status).toBe(1);
    expect(stopped.stdout).toContain(
      `✗ merge            main is checked out in ${repo.main.dir}, and with no remote to push the merge to, merging would move it under that working tree.`,
    );
    const next = `merge it there (\`git -C ${repo.main.dir} merge --no-ff feat/alpha\`), then run \`playbook archive --resume\`.`;
    expect(stopped.stdout).toContain(`partial: ${next}`);
    expect(repo.main.git("status", "--porcelain").trim()).toBe("");

    repo.main.git("merge", "--no-ff", "-q", "--no-edit", "feat/alpha");
    const resumed = await archive(alpha, "local", {}, "--resume");
    expect(resumed.stdout).toContain(
      "✓ merge            feat/alpha already in main",
    );
    expect(resumed.status, resumed.stdout).toBe(0);
    expect(repo.main.git("show", "main:src/alpha.ts")).toBe(
      "export const alpha = 1;\n",
    );
    expect(repo.main.git("status", "--porcelain").trim()).toBe("");
  }, 120_000);
});
