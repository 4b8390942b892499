import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createGitPort,
  GitCommandError,
  PushRejected,
} from "../../src/adapters/git-port.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

/** A clone with one commit on main, pushed to a bare remote (which has origin/HEAD), plus a second clone. */
function clones(): { work: string; other: string; bare: string } {
  const base = mkdtempSync(join(tmpdir(), "playbook-git-port-"));
  dirs.push(base);
  const bare = join(base, "remote.git");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
  const seed = join(base, "seed");
  mkdirSync(seed);
  git(seed, "init", "-q", "-b", "main");
  git(seed, "config", "user.name", "Seed");
  git(seed, "config", "user.email", "seed@example.com");
  writeFileSync(join(seed, "README.md"), "hello\n");
  git(seed, "add", "README.md");
  git(seed, "commit", "-q", "-m", "init");
  git(seed, "push", "-q", bare, "main");
  const work = join(base, "work");
  const other = join(base, "other");
  for (const dir of [work, other]) {
    execFileSync("git", ["clone", "-q", bare, dir]);
    git(dir, "config", "user.name", "Dev");
    git(dir, "config", "user.email", "dev@example.com");
  }
  return { work, other, bare };
}

function commitFile(dir: string, name: string, text: string): void {
  writeFileSync(join(dir, name), text);
  git(dir, "add", name);
  git(dir, "commit", "-q", "-m", `add ${name}`);
}

describe("git port", () => {
  it("push says whether anything moved and refuses, never forces, when the remote is ahead", async () => {
    const { work, other, bare } = clones();
    const port = createGitPort(work);
    git(work, "switch", "-q", "-c", "feat/x");
    commitFile(work, "a.txt", "a\n");
    await expect(port.push("origin", "feat/x")).resolves.toEqual({
      status: "pushed",
      summary: "new branch",
    });
    await expect(port.push("origin", "feat/x")).resolves.toMatchObject({
      status: "up-to-date",
    });
    git(other, "fetch", "-q", "origin");
    git(other, "switch", "-q", "feat/x");
    commitFile(other, "b.txt", "b\n");
    git(other, "push", "-q", "origin", "feat/x");
    commitFile(work, "c.txt", "c\n");
    const rejected = await port
      .push("origin", "feat/x")
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(PushRejected);
    // The remote still has the other clone's commit.
    expect(git(bare, "log", "-1", "--format=%s", "feat/x")).toBe("add b.txt");
    const missing = await port.push("origin", "nope").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(GitCommandError);
    expect(missing).not.toBeInstanceOf(PushRejected);
    expect((missing as Error).message).toMatch(/src refspec .*nope/);
  });

  it("deletes a remote branch once and reports it missing after", async () => {
    const { work, bare } = clones();
    const port = createGitPort(work);
    git(work, "push", "-q", "origin", "main:refs/heads/feat/gone");
    await expect(port.deleteRemoteBranch("origin", "feat/gone")).resolves.toBe(
      "deleted",
    );
    expect(git(bare, "branch", "--list", "feat/gone")).toBe("");
    await expect(port.deleteRemoteBranch("origin", "feat/gone")).resolves.toBe(
      "missing",
    );
  });

  it("fetch updates the remote-tracking branch and answers false for a branch the remote lacks", async () => {
    const { work, other } = clones();
    const port = createGitPort(work);
    commitFile(other, "b.txt", "b\n");
    git(other, "push", "-q", "origin", "main");
    await expect(port.fetch("origin", "main")).resolves.toBe(true);
    expect(git(work, "rev-parse", "origin/main")).toBe(
      git(other, "rev-parse", "HEAD"),
    );
    await expect(port.fetch("origin", "no-such-branch")).resolves.toBe(false);
    await expect(port.fetch("nowhere", "main")).rejects.toBeInstanceOf(
      GitCommandError,
    );
  });

  it("reads exact refs, the branch HEAD is on, and origin/HEAD's target in one go", async () => {
    const { work } = clones();
    const port = createGitPort(work);
    git(work, "branch", "feat/nested");
    const refs = await port.refs([
      "refs/heads/main",
      "refs/remotes/origin/HEAD",
      "refs/heads/feat",
    ]);
    expect([...refs.sha.keys()].sort()).toEqual([
      "refs/heads/main",
      "refs/remotes/origin/HEAD",
    ]);
    expect(refs.sha.get("refs/heads/main")).toBe(
      git(work, "rev-parse", "HEAD"),
    );
    expect(refs.head).toBe("refs/heads/main");
    expect(refs.symref.get("refs/remotes/origin/HEAD")).toBe(
      "refs/remotes/origin/main",
    );
    git(work, "switch", "-q", "-c", "elsewhere");
    expect((await port.refs(["refs/heads/main"])).head).toBeNull();
    await expect(port.localDefaultBranch("origin")).resolves.toBe("main");
  });

  it("commit returns the new commit's name and counts each git process", async () => {
    const { work } = clones();
    const port = createGitPort(work);
    git(work, "switch", "-q", "-c", "feat/deadbeef00");
    writeFileSync(join(work, "x.txt"), "x\n");
    await port.addAll(["x.txt"]);
    const before = port.spawned();
    const sha = await port.commit("feat: x");
    expect(port.spawned() - before).toBe(1);
    expect(git(work, "rev-parse", "HEAD").startsWith(sha ?? "-")).toBe(true);
    expect(sha?.length).toBeGreaterThanOrEqual(7);
  });

  it("commit answers null when nothing is staged, such as a change written back to what HEAD has", async () => {
    const { work } = clones();
    const port = createGitPort(work);
    const head = git(work, "rev-parse", "HEAD");
    writeFileSync(join(work, "README.md"), "changed\n");
    writeFileSync(join(work, "README.md"), "hello\n");
    await port.addAll(["README.md"]);
    await expect(port.commit("chore: nothing")).resolves.toBeNull();
    expect(git(work, "rev-parse", "HEAD")).toBe(head);
    // A commit refused for another reason (here the user's pre-commit hook) still fails.
    writeFileSync(
      join(work, ".git", "hooks", "pre-commit"),
      "#!/bin/sh\nexit 1\n",
      {
        mode: 0o755,
      },
    );
    writeFileSync(join(work, "README.md"), "changed\n");
    await port.addAll(["README.md"]);
    await expect(port.commit("x")).rejects.toBeInstanceOf(GitCommandError);
  });

  it("status reads HEAD's branch and commit with the changes, in one process", async () => {
    const { work } = clones();
    const port = createGitPort(work);
    writeFileSync(join(work, "new file.txt"), "n\n");
    writeFileSync(join(work, "README.md"), "changed\n");
    const before = port.spawned();
    const status = await port.status();
    expect(port.spawned() - before).toBe(1);
    expect(status).toEqual({
      branch: "main",
      head: git(work, "rev-parse", "HEAD"),
      entries: [
        { path: "README.md", from: null, index: " ", worktree: "M" },
        { path: "new file.txt", from: null, index: "?", worktree: "?" },
      ],
    });
    git(work, "switch", "-q", "--detach");
    expect((await port.status()).branch).toBeNull();
  });

  it("a ref another worktree's git holds locked is waited for, then updated (parallel sessions share refs)", async () => {
    const { work, other } = clones();
    commitFile(other, "b.txt", "b\n");
    git(other, "push", "-q", "origin", "main");
    const lock = join(work, ".git", "refs", "remotes", "origin", "main.lock");
    writeFileSync(lock, "");
    const released = new Promise((resolve) =>
      setTimeout(() => resolve(rmSync(lock)), 300),
    );
    await expect(createGitPort(work).fetch("origin", "main")).resolves.toBe(
      true,
    );
    await released;
    expect(git(work, "rev-parse", "origin/main")).toBe(
      git(other, "rev-parse", "HEAD"),
    );
  });

  it("reads with the refs the other worktree that has a branch checked out, never this one", async () => {
    const { work } = clones();
    const linked = `${work}-linked`;
    dirs.push(linked);
    git(work, "worktree", "add", "-q", "-b", "feat/y", linked);
    git(work, "branch", "feat/z");
    const names = ["refs/heads/main", "refs/heads/feat/y", "refs/heads/feat/z"];
    const fromLinked = await createGitPort(linked).refs(names);
    expect([...fromLinked.elsewhere]).toEqual([["refs/heads/main", work]]);
    expect(fromLinked.head).toBe("refs/heads/feat/y");
    const fromWork = await createGitPort(work).refs(names);
    expect([...fromWork.elsewhere]).toEqual([["refs/heads/feat/y", linked]]);
    expect(fromWork.head).toBe("refs/heads/main");
  });
});
