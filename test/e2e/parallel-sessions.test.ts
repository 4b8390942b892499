import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { GoldenPath, Move } from "../../demo/golden-path.ts";
import { useLocalGitHub } from "../../demo/local-github.ts";
import { createMoves } from "../../demo/moves.ts";
import { goldenPathSessions } from "../../demo/run-task.ts";
import { PARALLEL_TASKS } from "../../demo/tasks.ts";
import { addWorktree } from "../../demo/worktrees.ts";
import type { GitHubServer } from "../../harness/github-server.ts";
import {
  createWorld,
  expectOnPath,
  refusal,
  stepTitled,
  TODAY,
} from "../helpers/golden-path-world.ts";

let servers: GitHubServer[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

const TOKEN = "ghp_e2e00000000000000000000000000000000000";

/** The world's git in one worktree. */
const gitIn = (world: GoldenPath, dir: string, ...args: string[]) =>
  world.project.git("-C", dir, ...args).trim();

describe("parallel sessions through the real Claude Code CLI, one per git worktree", () => {
  it("two sessions at once, each in its own worktree, each take their own playbook to a merged pull request", async () => {
    const env: Record<string, string | undefined> = {
      GITHUB_TOKEN: undefined,
      GH_TOKEN: undefined,
      NO_COLOR: "1",
    };
    const local = useLocalGitHub(env, TOKEN);
    const world = await createWorld({ env, ...local.options });
    const github = local.server()!;
    servers.push(github);
    const mainHead = gitIn(world, world.project.dir, "rev-parse", "HEAD");
    const tasks = PARALLEL_TASKS.slice(0, 2);
    const dirs = tasks.map((task) => addWorktree(world, task.name));

    const config = world.read(".git/config");
    const otherLoader = readFileSync(
      join(dirs[1]!, ".claude", "hooks", "playbook.cjs"),
      "utf8",
    );
    await Promise.all(
      tasks.map(async (task, index) => {
        const dir = dirs[index]!;
        const [request, next] = goldenPathSessions(world, task, TODAY, {
          demoBlocks: false,
          dir,
        });
        // From its worktree, the first agent reaches for what lies outside it: the repository's git settings (which
        // configure the git the hook runs outside the sandbox) and the other session's hook loader.
        if (index === 0) {
          const m = createMoves(dir, task);
          const outside = (title: string, file_path: string): Move =>
            m.move(
              "agent",
              title,
              { name: "Write", input: { file_path, content: "x\n" } },
              "deny",
            );
          const first = request.moves.findIndex((move) =>
            move.title.startsWith("it writes src/"),
          );
          request.moves.splice(
            first,
            0,
            outside(
              "it writes the repository's git settings from its worktree",
              join(world.project.dir, ".git", "config"),
            ),
            outside(
              "it writes the other session's hook loader",
              join(dirs[1]!, ".claude", "hooks", "playbook.cjs"),
            ),
          );
        }
        await world.session(request);
        await world.session(next);
      }),
    );

    expectOnPath(world);
    expect(github.violations).toEqual([]);
    // Two pull requests, both merged; every commit of both branches is on main.
    const merged = github.requests.filter(
      (r) =>
        r.method === "PUT" &&
        /^\/repos\/acme\/calc\/pulls\/\d+\/merge$/.test(r.path) &&
        r.status === 200,
    );
    expect(merged.map((r) => r.path).sort()).toEqual([
      "/repos/acme/calc/pulls/1/merge",
      "/repos/acme/calc/pulls/2/merge",
    ]);
    const onMain = world.project
      .remoteGit("ls-tree", "-r", "--name-only", "main")
      .split("\n");
    for (const [index, task] of tasks.entries()) {
      const dir = dirs[index]!;
      for (const path of [
        `src/${task.name}.js`,
        `test/${task.name}.test.js`,
        `docs/${task.name}.md`,
        `plan/archive/playbook-${task.name}.md`,
      ])
        expect(onMain).toContain(path);
      const head = gitIn(world, dir, "rev-parse", `feat/${task.name}`);
      expect(() =>
        world.project.remoteGit("merge-base", "--is-ancestor", head, "main"),
      ).not.toThrow();
      // The worktree waits on a commit of main, clean but for its session's stamps in state.md.
      expect(gitIn(world, dir, "branch", "--show-current")).toBe("");
      expect(["", "M state.md"]).toContain(
        gitIn(world, dir, "status", "--porcelain"),
      );
      const changed = gitIn(world, dir, "diff", "-U0", "state.md")
        .split("\n")
        .filter((line) => /^[+-](?![+-])/.test(line));
      for (const line of changed)
        expect(line).toMatch(/^[+-]last_(?:start|end): /);
    }
    const state = world.project.remoteGit("show", "main:state.md");
    expect(state).toMatch(/^active: null$/m);
    expect(state).not.toContain("<<<<<<<");
    for (const title of [
      "it writes the repository's git settings from its worktree",
      "it writes the other session's hook loader",
    ])
      expect(refusal(stepTitled(world, title))).toContain(
        "outside this working tree",
      );
    expect(world.read(".git/config")).toBe(config);
    expect(
      readFileSync(join(dirs[1]!, ".claude", "hooks", "playbook.cjs"), "utf8"),
    ).toBe(otherLoader);
    // The main worktree, on main, was not touched.
    expect(gitIn(world, world.project.dir, "rev-parse", "HEAD")).toBe(mainHead);
    expect(gitIn(world, world.project.dir, "status", "--porcelain")).toBe("");
    // Neither session saw the other's playbook, branch or lock in what playbook told it.
    for (const session of world.sessions) {
      const own = tasks.find((task) =>
        session.dir.endsWith(`calc-${task.name}`),
      )!;
      const other = tasks.find((task) => task !== own)!;
      for (const step of session.steps)
        expect(step.lines.join("\n")).not.toContain(`playbook-${other.name}`);
    }
  }, 900_000);
});
