import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  isFileOnBranch,
  isGitRepository,
  readChangedFiles,
  readDefaultBranch,
  readRecentCommits,
} from "../../src/adapters/git-facts.ts";
import { hasUncommittedTrackedChanges } from "../../src/adapters/git-dirty.ts";
import {
  readRepositoryLayout,
  runGitSync,
} from "../../src/adapters/git-runner.ts";
import {
  readWorkingTree,
  treeFingerprint,
} from "../../src/adapters/tree-fingerprint.ts";
import { currentTreeFingerprint } from "../../src/app/workspace/current-tree.ts";
import { createFinishedRepo } from "../helpers/finished-repo.ts";
import type { GuardedRepo } from "../helpers/guarded-repo.ts";
import {
  createHostileGitHome,
  type HostileGitHome,
} from "../helpers/hostile-git-home.ts";
import { runCli } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const ARCHIVED = "plan/archive/playbook-login-form.md";

/** A committed repository with work in progress: a changed file, a new one, and `.gitattributes` naming the filter. */
function workRepo(): TempProject & { git: (...args: string[]) => string } {
  const p = createTempProject({
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 1;\n",
    ".gitattributes": "* filter=evil diff=evil merge=evil\n",
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: p.dir,
      encoding: "utf8",
      env: {
        ...process.env,
        HOME: "/nonexistent",
        XDG_CONFIG_HOME: "/nonexistent",
      },
    });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Repo User");
  git("config", "user.email", "repo@example.com");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  p.write("src/a.ts", "export const a = 2;\n");
  p.write("src/new.ts", "export const n = 1;\n");
  // Untracked, where an ignore file can hide it.
  p.write("src/hidden.ts", "export const hidden = 1;\n");
  return { ...p, git };
}

/** This process as a hook process whose HOME the agent wrote (restored after each test). */
let saved: NodeJS.ProcessEnv;
beforeEach(() => {
  saved = { ...process.env };
});
afterEach(() => {
  for (const key of Object.keys(process.env))
    if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});
function becomeHookProcess(home: HostileGitHome): void {
  process.env["HOME"] = home.home;
  delete process.env["XDG_CONFIG_HOME"];
  process.env["PLAYBOOK_HOOK_PROCESS"] = "1";
}

/** The archive as the hook's job runs it, with the agent's HOME: local provider, a local bare remote. */
function archiveAsHook(repo: GuardedRepo, home: HostileGitHome, env = {}) {
  return runCli(["archive", "--provider", "local", "--cwd", repo.dir], {
    env: {
      HOME: home.home,
      XDG_CONFIG_HOME: undefined,
      PLAYBOOK_HOOK_PROCESS: "1",
      GITHUB_TOKEN: undefined,
      GH_TOKEN: undefined,
      GIT_AUTHOR_NAME: undefined,
      GIT_AUTHOR_EMAIL: undefined,
      GIT_COMMITTER_NAME: undefined,
      GIT_COMMITTER_EMAIL: undefined,
      ...env,
    },
  });
}
const bare = (repo: GuardedRepo, ...args: string[]) =>
  execFileSync("git", args, { cwd: repo.remoteDir, encoding: "utf8" }).trim();

/**
 * The repository's own `.git/config` naming a program for every key with a fixed name: the agent cannot write that
 * file (Claude Code's sandbox keeps it read-only), but the runner's settings must win over it all the same.
 */
function nameProgramsInRepository(
  repo: { git: (...args: string[]) => string },
  home: HostileGitHome,
): void {
  const settings: [string, string][] = [
    ["core.fsmonitor", home.program("repo-fsmonitor")],
    ["core.hooksPath", join(home.home, "hooks")],
    ["core.editor", home.program("repo-editor")],
    ["sequence.editor", home.program("repo-sequence-editor")],
    ["core.pager", home.program("repo-pager")],
    ["core.askPass", home.program("repo-askpass")],
    ["core.sshCommand", home.program("repo-ssh")],
    ["diff.external", home.program("repo-diff-external")],
    ["gpg.program", home.program("repo-gpg")],
    ["commit.gpgSign", "true"],
    ["log.showSignature", "true"],
    ["merge.verifySignatures", "true"],
    ["credential.helper", `!${home.program("repo-credential")}`],
    ["remote.origin.uploadpack", home.program("repo-uploadpack")],
    ["remote.origin.receivepack", home.program("repo-receivepack")],
  ];
  for (const [key, value] of settings) repo.git("config", key, value);
}

describe("a HOME the agent wrote runs nothing in playbook's git", () => {
  it("the fixture can fail: the same HOME runs its programs in a person's own git, and hides a file from it", () => {
    const home = createHostileGitHome({ hiddenPath: "src/hidden.ts" });
    const p = workRepo();
    const status = spawnSync("git", ["status", "--porcelain"], {
      cwd: p.dir,
      encoding: "utf8",
      env: { ...process.env, HOME: home.home, XDG_CONFIG_HOME: undefined },
    });
    expect(status.stdout).toContain("src/new.ts");
    expect(status.stdout).not.toContain("src/hidden.ts");
    spawnSync("git", ["add", "-A"], {
      cwd: p.dir,
      env: { ...process.env, HOME: home.home, XDG_CONFIG_HOME: undefined },
    });
    expect(home.marks()).toEqual(
      // The include comes last in ~/.gitconfig, so its filter and fsmonitor are the ones git ran.
      expect.arrayContaining(["included-clean", "included-fsmonitor"]),
    );
  });

  it("the fingerprint (a full reading, the basis, the listing) runs no filter, fsmonitor or hook, and the global ignore hides nothing", () => {
    const home = createHostileGitHome({ hiddenPath: "src/hidden.ts" });
    const p = workRepo();
    nameProgramsInRepository(p, home);
    becomeHookProcess(home);
    const full = readWorkingTree(p.dir).fingerprint;
    expect(full).toMatch(/^sha256:/);
    expect(treeFingerprint(p.dir)).toBe(full);
    expect(currentTreeFingerprint(p.dir)).toBe(full);
    p.write("src/hidden.ts", "export const hidden = 'broken';\n");
    const broken = treeFingerprint(p.dir);
    expect(broken).not.toBe(full);
    expect(readWorkingTree(p.dir).fingerprint).toBe(broken);
    expect(home.marks()).toEqual([]);
  });

  it("git-facts and git-dirty run nothing either, and still answer", () => {
    const home = createHostileGitHome();
    const p = workRepo();
    nameProgramsInRepository(p, home);
    becomeHookProcess(home);
    expect(isGitRepository(p.dir)).toBe(true);
    expect(readRecentCommits(p.dir, 5)).toHaveLength(1);
    expect(readChangedFiles(p.dir)).toEqual(
      expect.arrayContaining([" M src/a.ts", "?? src/new.ts"]),
    );
    expect(hasUncommittedTrackedChanges(p.dir)).toBe(true);
    expect(isFileOnBranch(p.dir, "main", "src/a.ts")).toBe(true);
    expect(readDefaultBranch(p.dir)).toBe("main");
    expect(home.marks()).toEqual([]);
  });

  it("the archive commits, merges and pushes to the remote without running a program, as the repository's user, whatever even .git/config names", () => {
    const home = createHostileGitHome();
    const repo = createFinishedRepo(
      {},
      {
        ".gitattributes": "* filter=evil diff=evil merge=evil\n",
      },
    );
    nameProgramsInRepository(repo, home);

    const result = archiveAsHook(repo, home);

    expect(result.status, result.stderr + result.stdout).toBe(0);
    expect(bare(repo, "ls-tree", "--name-only", "main", "plan/archive/")).toBe(
      ARCHIVED,
    );
    expect(bare(repo, "log", "-1", "--format=%an <%ae>", "main")).toBe(
      "Test <test@example.com>",
    );
    expect(home.marks()).toEqual([]);
  });

  it("without a user in the repository, it commits as the global config's user, read as a plain value; without either, as the environment's", () => {
    const home = createHostileGitHome();
    const repo = createFinishedRepo();
    repo.git("config", "--unset", "user.name");
    repo.git("config", "--unset", "user.email");

    expect(archiveAsHook(repo, home).status).toBe(0);
    // The merge and the branch's last commit (parents by name: commits of the same second sort either way).
    for (const commit of ["main", "main^2"])
      expect(bare(repo, "log", "-1", "--format=%an <%ae> %cn", commit)).toBe(
        "Global User <global@example.com> Global User",
      );
    expect(home.marks()).toEqual([]);

    const anonymous = createHostileGitHome({ identity: false });
    const other = createFinishedRepo();
    other.git("config", "--unset", "user.name");
    other.git("config", "--unset", "user.email");
    const result = archiveAsHook(other, anonymous, {
      GIT_AUTHOR_NAME: "Env Author",
      GIT_AUTHOR_EMAIL: "env@example.com",
      GIT_COMMITTER_NAME: "Env Author",
      GIT_COMMITTER_EMAIL: "env@example.com",
    });
    expect(result.status, result.stderr).toBe(0);
    expect(bare(other, "log", "-1", "--format=%an <%ae>", "main")).toBe(
      "Env Author <env@example.com>",
    );
    expect(anonymous.marks()).toEqual([]);
  });
});

describe("the repository's own settings are read only where the agent cannot have written them", () => {
  it("an include in .git/config is refused with the file, the line and the next step: no fingerprint, no archive", () => {
    const home = createHostileGitHome();
    const repo = createFinishedRepo();
    const included = join(home.home, "included.gitconfig");
    repo.git("config", "include.path", included);
    const head = repo.git("rev-parse", "HEAD").trim();
    becomeHookProcess(home);

    expect(() => readWorkingTree(repo.dir)).toThrow(
      `${join(repo.dir, ".git", "config")} includes another file ([include])`,
    );
    expect(currentTreeFingerprint(repo.dir)).toEqual({
      unreadable: expect.stringContaining(
        "copy the settings you need into",
      ) as string,
    });
    const result = archiveAsHook(repo, home);
    expect(result.status).toBe(1);
    expect(result.stdout + result.stderr).toContain("includes another file");
    expect(repo.git("rev-parse", "HEAD").trim()).toBe(head);
    expect(home.marks()).toEqual([]);
  });

  it("a .git/config over 1 MiB is refused, not half read: an include past the first MiB would go unseen", () => {
    const home = createHostileGitHome();
    const repo = createFinishedRepo();
    const config = join(repo.dir, ".git", "config");
    writeFileSync(
      config,
      `${readFileSync(config, "utf8")}# ${"x".repeat(1 << 20)}\n[include]\n\tpath = ${join(home.home, "included.gitconfig")}\n`,
    );
    becomeHookProcess(home);

    expect(currentTreeFingerprint(repo.dir)).toEqual({
      unreadable: expect.stringContaining("larger than the 1 MiB") as string,
    });
    expect(home.marks()).toEqual([]);
  });

  it("a .git/commondir the agent's shell wrote is not read (git would take its settings from there)", () => {
    const home = createHostileGitHome();
    const p = workRepo();
    const evil = join(p.dir, "evil-common");
    mkdirSync(evil, { recursive: true });
    execFileSync("cp", ["-r", join(p.dir, ".git", "objects"), evil]);
    execFileSync("cp", ["-r", join(p.dir, ".git", "refs"), evil]);
    writeFileSync(
      join(evil, "config"),
      `[core]\n\trepositoryformatversion = 0\n[filter "evil"]\n\tclean = ${home.program("commondir-clean")}\n`,
    );
    writeFileSync(join(p.dir, ".git", "commondir"), evil);
    // The fixture can fail: git itself follows it.
    spawnSync("git", ["add", "src/a.ts"], {
      cwd: p.dir,
      env: { ...process.env, HOME: "/nonexistent" },
    });
    expect(home.marks()).toEqual(["commondir-clean"]);
    rmSync(join(home.home, "marks", "commondir-clean"));
    becomeHookProcess(home);

    expect(readRepositoryLayout(p.dir)?.commonDir).toBe(join(p.dir, ".git"));
    expect(readWorkingTree(p.dir).fingerprint).toMatch(/^sha256:/);
    const status = runGitSync({
      cwd: p.dir,
      args: ["add", "src/a.ts"],
      purpose: "act",
      timeoutMs: 10_000,
    });
    expect(status.status, status.stderr).toBe(0);
    expect(home.marks()).toEqual([]);
  });

  it("a main worktree's config.worktree may hold the sparse-checkout switches, and nothing else", () => {
    const p = workRepo();
    p.git("config", "extensions.worktreeConfig", "true");
    p.git("config", "--worktree", "core.sparseCheckout", "false");
    expect(readWorkingTree(p.dir).fingerprint).toMatch(/^sha256:/);

    const home = createHostileGitHome();
    writeFileSync(
      join(p.dir, ".git", "config.worktree"),
      `${readFileSync(join(p.dir, ".git", "config.worktree"), "utf8")}[filter "evil"]\n\tclean = ${home.program("worktree-clean")}\n`,
    );
    expect(() => readWorkingTree(p.dir)).toThrow(
      `${join(p.dir, ".git", "config.worktree")} holds \`[filter "evil"]\`, and the agent's shell can write that file`,
    );
    expect(home.marks()).toEqual([]);
  });
});

describe("a tree git cannot read is not 'no repository'", () => {
  it("a garbled .git/HEAD: the reading fails with git's words, and after HEAD is restored it reads as before", () => {
    const p = workRepo();
    const before = readWorkingTree(p.dir).fingerprint;
    const head = readFileSync(join(p.dir, ".git", "HEAD"), "utf8");
    writeFileSync(join(p.dir, ".git", "HEAD"), "garbage\n");

    expect(() => readWorkingTree(p.dir)).toThrow(/not a git repository/);
    expect(() => treeFingerprint(p.dir)).toThrow(/not a git repository/);
    expect(currentTreeFingerprint(p.dir)).toEqual({
      unreadable: expect.stringMatching(
        /^git ls-files: fatal: not a git repository/,
      ) as string,
    });

    writeFileSync(join(p.dir, ".git", "HEAD"), head);
    expect(treeFingerprint(p.dir)).toBe(before);
  });

  it("a listing that runs out of time is a tree git could not read, not an empty one", () => {
    const p = workRepo();
    // No git process starts, runs and exits within a millisecond.
    expect(() => readWorkingTree(p.dir, 1)).toThrow(
      "git ls-files: git ls-files did not finish within 1 ms",
    );
  });

  it("a .git file that names no folder is a repository git cannot read too; no .git at all is no repository", () => {
    const p = createTempProject({ "a.txt": "a\n" });
    expect(currentTreeFingerprint(p.dir)).toBeNull();
    p.write(".git", "not a pointer\n");
    expect(currentTreeFingerprint(p.dir)).toEqual({
      unreadable: expect.stringContaining("git ls-files") as string,
    });
    expect(existsSync(p.path(".git"))).toBe(true);
  });
});
