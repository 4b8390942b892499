import { describe, expect, it } from "vitest";
import {
  committableChanges,
  parseStatusV2Z,
} from "../../../../src/core/archive/git-status.ts";
import {
  apiUrlFor,
  chooseProvider,
  parseRemoteUrl,
} from "../../../../src/core/archive/github-remote.ts";
import {
  archivePathFor,
  stateResetEdits,
} from "../../../../src/core/archive/journal.ts";

describe("parseRemoteUrl", () => {
  it.each([
    [
      "git@github.com:acme/app.git",
      { host: "github.com", owner: "acme", repo: "app" },
    ],
    [
      "https://github.com/acme/app",
      { host: "github.com", owner: "acme", repo: "app" },
    ],
    [
      "https://x-access-token:abc@github.com/acme/app.git",
      { host: "github.com", owner: "acme", repo: "app" },
    ],
    [
      "ssh://git@ghe.example.com:2222/team/tool.git",
      { host: "ghe.example.com", owner: "team", repo: "tool" },
    ],
    [
      "git@GitHub.com:acme/my.repo.git",
      { host: "github.com", owner: "acme", repo: "my.repo" },
    ],
    ["/tmp/remote.git", null],
    ["../bare", null],
    ["file:///srv/git/app.git", null],
    ["https://github.com/acme", null],
  ])("%s", (url, expected) => {
    expect(parseRemoteUrl(url)).toEqual(expected);
  });

  it("derives the API URL: api.github.com, or /api/v3 on GitHub Enterprise", () => {
    expect(apiUrlFor("github.com")).toBe("https://api.github.com");
    expect(apiUrlFor("ghe.example.com")).toBe("https://ghe.example.com/api/v3");
  });
});

describe("chooseProvider", () => {
  const base = {
    configured: "auto" as const,
    remoteUrl: "git@github.com:acme/app.git",
    repository: null,
    apiUrl: null,
    envApiUrl: null,
    hasToken: true,
  };
  it.each([
    [
      "a GitHub remote and a token",
      {},
      {
        provider: "github",
        repository: { owner: "acme", repo: "app" },
        apiUrl: "https://api.github.com",
      },
    ],
    [
      "GITHUB_API_URL wins over config and remote",
      { envApiUrl: "http://127.0.0.1:9", apiUrl: "https://x/api/v3" },
      { provider: "github", apiUrl: "http://127.0.0.1:9" },
    ],
    [
      "archive.repository for a remote that is not on GitHub",
      {
        remoteUrl: "/srv/app.git",
        repository: "acme/app",
        apiUrl: "https://ghe/api/v3",
      },
      { provider: "github", repository: { owner: "acme", repo: "app" } },
    ],
    [
      "no GitHub remote",
      { remoteUrl: "/srv/app.git" },
      { provider: "local", note: null },
    ],
    [
      "no remote at all",
      { remoteUrl: null },
      { provider: "local", note: null },
    ],
    [
      "local configured",
      { configured: "local" as const },
      { provider: "local", note: null },
    ],
  ])("%s", (_name, overrides, expected) => {
    expect(chooseProvider({ ...base, ...overrides })).toMatchObject(expected);
  });

  it("a GitHub remote without a token merges locally and says why", () => {
    const choice = chooseProvider({ ...base, hasToken: false });
    expect(choice).toMatchObject({ provider: "local" });
    expect(choice.provider === "local" && choice.note).toContain(
      "no GitHub token was found",
    );
  });

  it.each([
    ["no token", { hasToken: false }, "no token was found"],
    [
      "no repository",
      { remoteUrl: "/srv/app.git" },
      "names no GitHub repository",
    ],
  ])(
    "an explicit github provider with %s is a problem, never a silent local merge",
    (_name, overrides, problem) => {
      const choice = chooseProvider({
        ...base,
        configured: "github",
        ...overrides,
      });
      expect(choice.provider).toBeNull();
      expect(choice.provider === null && choice.problem).toContain(problem);
    },
  );
});

describe("parseStatusV2Z", () => {
  const Z = "100644 100644 100644";
  const H = `${"1".repeat(40)} ${"2".repeat(40)}`;
  it("reads HEAD's branch and commit, modifications, renames, conflicts, untracked and ignored entries, and keeps the committable ones", () => {
    const status = parseStatusV2Z(
      [
        `# branch.oid ${"a".repeat(40)}`,
        "# branch.head feat/x",
        "# branch.ab +? -?",
        `1 .M N... ${Z} ${H} src/a b.ts`,
        `2 R. N... ${Z} ${H} R100 plan/archive/x.md`,
        "plan/x.md",
        `u UU N... ${Z} 100644 ${H} ${"3".repeat(40)} state.md`,
        "? new file.ts",
        "! dist/x.js",
        `1 D. N... 100644 000000 000000 ${H} gone.ts`,
        "",
      ].join("\0"),
    );
    expect(status.head).toBe("a".repeat(40));
    expect(status.branch).toBe("feat/x");
    expect(status.entries).toEqual([
      { path: "src/a b.ts", from: null, index: " ", worktree: "M" },
      {
        path: "plan/archive/x.md",
        from: "plan/x.md",
        index: "R",
        worktree: " ",
      },
      { path: "state.md", from: null, index: "U", worktree: "U" },
      { path: "new file.ts", from: null, index: "?", worktree: "?" },
      { path: "dist/x.js", from: null, index: "!", worktree: "!" },
      { path: "gone.ts", from: null, index: "D", worktree: " " },
    ]);
    expect(committableChanges(status.entries).map((e) => e.path)).toEqual([
      "src/a b.ts",
      "plan/archive/x.md",
      "state.md",
      "new file.ts",
      "gone.ts",
    ]);
  });

  it("reads a detached HEAD and a repository before its first commit as null", () => {
    expect(
      parseStatusV2Z(
        `# branch.oid ${"a".repeat(40)}\0# branch.head (detached)\0`,
      ),
    ).toEqual({ branch: null, head: "a".repeat(40), entries: [] });
    expect(
      parseStatusV2Z("# branch.oid (initial)\0# branch.head main\0"),
    ).toEqual({ branch: "main", head: null, entries: [] });
  });
});

describe("archive paths and the state reset", () => {
  it("takes plan/archive/<name>, or a dated name when an earlier playbook took it", () => {
    const taken = new Set([
      "plan/archive/playbook-x.md",
      "plan/archive/playbook-x.2026-11-23.md",
    ]);
    expect(
      archivePathFor("plan/playbook-y.md", (p) => taken.has(p), "2026-11-23"),
    ).toBe("plan/archive/playbook-y.md");
    expect(
      archivePathFor("plan/playbook-x.md", (p) => taken.has(p), "2026-11-23"),
    ).toBe("plan/archive/playbook-x.2026-11-23-2.md");
    expect(
      archivePathFor(
        "plan/playbook-x.md",
        (p) => taken.has(p) && !p.includes("2026"),
        "2026-11-23",
      ),
    ).toBe("plan/archive/playbook-x.2026-11-23.md");
  });

  it("resets the goal and points last_archived at the archive", () => {
    expect(stateResetEdits("plan/archive/playbook-x.md")).toContainEqual({
      section: "playbook",
      key: "last_archived",
      value: "plan/archive/playbook-x.md",
    });
    expect(stateResetEdits("a").map((e) => `${e.section}.${e.key}`)).toEqual([
      "playbook.active",
      "playbook.branch",
      "playbook.last_archived",
      "goal.milestone",
      "goal.phase",
      "goal.done_criteria",
      "goal.status",
    ]);
  });
});
