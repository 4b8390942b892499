import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createFinishedRepo,
  FINISHED_PLAYBOOK,
} from "../helpers/finished-repo.ts";
import { addWrittenFile } from "../../src/adapters/written-files-store.ts";
import { PLAYBOOK, type GuardedRepo } from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";

/** The tree p1.1's consistency evidence proves. */
function evidenceTree(repo: GuardedRepo): unknown {
  const file = repo.path(
    ".claude/playbook/records/plan__playbook-login-form.md/evidence.p1.1.consistency.json",
  );
  return (
    JSON.parse(readFileSync(file, "utf8")) as { detail: { tree?: unknown } }
  ).detail.tree;
}

/** The finished sample playbook with commands that run here: `consistency` of p1.1 as given. */
function finishedWith(
  consistency: string,
  work: Record<string, string> = {},
): GuardedRepo {
  const playbook = FINISHED_PLAYBOOK.replaceAll(
    /(automated|hybrid) - npx (vitest|tsc|playwright)[^"'\n+]*/g,
    "$1 - test -f src/login-form.tsx ",
  ).replace(
    "consistency: 'automated - test -f src/login-form.tsx '",
    `consistency: '${consistency}'`,
  );
  return createFinishedRepo(
    {
      playbook,
      files: {
        ".claude/playbook.json": `${JSON.stringify({
          security: sandboxed ? "strict" : "trusted",
          archive: { requireRerun: true },
        })}\n`,
      },
    },
    work,
  );
}

const sandboxed =
  process.platform === "darwin" ||
  ["bwrap", "socat", "rg"].every((tool) => {
    try {
      execFileSync("which", [tool], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });

function archive(repo: GuardedRepo, ...args: string[]) {
  return runCli(
    ["archive", "--provider", "local", "--cwd", repo.dir, ...args],
    {
      env: {
        GITHUB_TOKEN: undefined,
        GH_TOKEN: undefined,
        CLAUDE_CODE_SESSION_ID: "session-1",
      },
    },
  );
}

const remoteBranches = (repo: GuardedRepo) =>
  execFileSync("git", ["branch", "--list"], {
    cwd: repo.remoteDir,
    encoding: "utf8",
  });

describe("the archive's final proof (archive.requireRerun, on by default)", () => {
  it("stops before pushing when a validation run again fails, naming it and the next step", () => {
    // The evidence says PASS; the command fails when run again.
    const repo = finishedWith("automated - test -f missing.txt");

    const result = archive(repo);

    expect(result.status).not.toBe(0);
    const out = result.stdout + result.stderr;
    expect(out).toContain("the final proof failed");
    expect(out).toContain("p1.1 consistency");
    expect(out).toContain("playbook archive --resume");
    expect(remoteBranches(repo)).not.toContain("feat/login-form");
  });

  it("an ignored file the code needs does not count: the clean checkout lacks it, so nothing is pushed", () => {
    // The agent ignores src/impl/, proves code that reads from it, then breaks nothing it commits.
    const repo = finishedWith("automated - test -f src/impl/engine.txt", {
      ".gitignore": ".claude/playbook/\nsrc/impl/\n",
      "src/impl/engine.txt": "the real work, never committed\n",
    });

    const result = archive(repo);

    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("p1.1 consistency");
    expect(remoteBranches(repo)).not.toContain("feat/login-form");
    expect(repo.git("log", "main", "--oneline")).not.toContain("archive");
  });

  it("what the validations may reach comes from the project's configuration, not from a copy a commit slipped in", () => {
    const outside = mkdtempSync(join(tmpdir(), "playbook-reach-"));
    const repo = finishedWith(`automated - touch ${outside}/mark`);
    // With git plumbing, the agent commits a configuration that lets validations write anywhere, and hides the
    // difference from git status, so the archive's commit leaves it in.
    const evil = `${JSON.stringify({
      security: sandboxed ? "strict" : "trusted",
      archive: { requireRerun: true },
      verify: { allowWrite: [outside] },
    })}\n`;
    const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
      cwd: repo.dir,
      input: evil,
      encoding: "utf8",
    }).trim();
    repo.git(
      "update-index",
      "--cacheinfo",
      `100644,${blob},.claude/playbook.json`,
    );
    repo.git("update-index", "--assume-unchanged", ".claude/playbook.json");
    repo.git("commit", "-q", "-m", "tune the sandbox");

    const result = archive(repo);

    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("p1.1 consistency");
    expect(existsSync(join(outside, "mark"))).toBe(false);
    expect(remoteBranches(repo)).not.toContain("feat/login-form");
  });

  it("evidence of an earlier tree is proven again and replaced, not a chore: the archive merges", () => {
    const repo = finishedWith("automated - test -f src/login-form.tsx");
    // A later edit (the README for the next phase, written with the Write tool) makes every earlier evidence stale.
    repo.write("README.md", "# Login form\n");
    addWrittenFile(repo.dir, PLAYBOOK, "README.md");
    const staleTree = evidenceTree(repo);

    const result = archive(repo);

    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(repo.git("log", "main", "--oneline")).toContain("archive");
    expect(evidenceTree(repo)).not.toBe(staleTree);
  });

  it("archives and merges when every validation run again agrees", () => {
    const repo = finishedWith("automated - test -f src/login-form.tsx");

    const result = archive(repo);

    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(remoteBranches(repo)).toContain("main");
    expect(repo.git("log", "main", "--oneline")).toContain("archive");
  });
});
