import { describe, expect, it } from "vitest";
import { parseWorktreeList } from "../../../../src/core/archive/worktree-list.ts";

describe("parseWorktreeList", () => {
  it("reads each working tree's folder and branch; detached, bare and locked trees have none", () => {
    const text = [
      "worktree /repo",
      "HEAD 1111111111111111111111111111111111111111",
      "branch refs/heads/main",
      "",
      "worktree /trees/alpha beta",
      "HEAD 2222222222222222222222222222222222222222",
      "branch refs/heads/feat/alpha",
      "locked",
      "",
      "worktree /trees/gamma",
      "HEAD 3333333333333333333333333333333333333333",
      "detached",
      "prunable gitdir file points to non-existent location",
      "",
    ].join("\n");
    expect(parseWorktreeList(text)).toEqual([
      { path: "/repo", branch: "main" },
      { path: "/trees/alpha beta", branch: "feat/alpha" },
      { path: "/trees/gamma", branch: null },
    ]);
    expect(parseWorktreeList("worktree /srv/app.git\nbare\n")).toEqual([
      { path: "/srv/app.git", branch: null },
    ]);
  });
});
