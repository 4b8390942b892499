import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  createFinishedRepo,
  FINISHED_PLAYBOOK,
} from "../helpers/finished-repo.ts";
import type { GuardedRepo } from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";

/** The finished sample playbook with commands that run here: `consistency` of p1.1 as given. */
function finishedWith(consistency: string): GuardedRepo {
  const playbook = FINISHED_PLAYBOOK.replaceAll(
    /(automated|hybrid) - npx (vitest|tsc|playwright)[^"'\n+]*/g,
    "$1 - test -f src/login-form.tsx ",
  ).replace(
    "consistency: 'automated - test -f src/login-form.tsx '",
    `consistency: '${consistency}'`,
  );
  return createFinishedRepo({
    playbook,
    files: {
      ".claude/playbook.json": `${JSON.stringify({
        security: sandboxed ? "strict" : "trusted",
        archive: { requireRerun: true },
      })}\n`,
    },
  });
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

describe("archive.requireRerun", () => {
  it("stops before pushing when a validation run again disagrees with its evidence, with the next step", () => {
    // The evidence says PASS; the command fails when run again.
    const repo = finishedWith("automated - test -f missing.txt");

    const result = archive(repo);

    expect(result.status).not.toBe(0);
    const out = result.stdout + result.stderr;
    expect(out).toContain(
      "`playbook check --rerun` disagrees with the evidence",
    );
    expect(out).toContain("p1.1 consistency");
    expect(out).toContain("npx --no playbook verify <id>");
    expect(remoteBranches(repo)).not.toContain("feat/login-form");
  });

  it("archives and merges when every validation run again agrees", () => {
    const repo = finishedWith("automated - test -f src/login-form.tsx");

    const result = archive(repo);

    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(remoteBranches(repo)).toContain("main");
    expect(repo.git("log", "main", "--oneline")).toContain("archive");
  });
});
