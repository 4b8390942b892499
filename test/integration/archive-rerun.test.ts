import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createFinishedRepo,
  finishedPlaybookWith,
  pushConflictingWorkToMain,
} from "../helpers/finished-repo.ts";
import { addWrittenFile } from "../../src/adapters/written-files-store.ts";
import { PLAYBOOK, type GuardedRepo } from "../helpers/guarded-repo.ts";
import { requireSandboxTools } from "../helpers/required-tools.ts";
import { runCli } from "../helpers/run-cli.ts";
import { readWorkingTree } from "../../src/adapters/tree-fingerprint.ts";

const PLAYBOOK_PATH = "plan/playbook-login-form.md";

/** p1.1's consistency evidence. */
function evidence(repo: GuardedRepo): {
  by: string;
  detail: { tree?: unknown; commit?: unknown };
} {
  const file = repo.path(
    ".claude/playbook/records/plan__playbook-login-form.md/evidence.p1.1.consistency.json",
  );
  return JSON.parse(readFileSync(file, "utf8")) as ReturnType<typeof evidence>;
}

/** The tree p1.1's consistency evidence proves. */
function evidenceTree(repo: GuardedRepo): unknown {
  return evidence(repo).detail.tree;
}

/** Where main is on the bare remote. */
function remoteMain(repo: GuardedRepo): string {
  return execFileSync("git", ["rev-parse", "main"], {
    cwd: repo.remoteDir,
    encoding: "utf8",
  }).trim();
}

/** The finished sample playbook with commands that run here: `consistency` of p1.1 as given. */
function finishedWith(
  consistency: string,
  work: Record<string, string> = {},
): GuardedRepo {
  requireSandboxTools();
  const playbook = finishedPlaybookWith(consistency);
  return createFinishedRepo(
    {
      playbook,
      files: {
        ".claude/playbook.json": `${JSON.stringify({
          security: "strict",
          archive: { requireRerun: true },
        })}\n`,
      },
    },
    work,
  );
}

function archive(repo: GuardedRepo, ...args: string[]) {
  // After `--`, the host's temp folder for the archive (the tests' own may have moved TMPDIR).
  const at = args.indexOf("--");
  const temp = at < 0 ? undefined : args[at + 1];
  return runCli(
    [
      "archive",
      "--provider",
      "local",
      "--cwd",
      repo.dir,
      ...(at < 0 ? args : args.slice(0, at)),
    ],
    {
      env: {
        GITHUB_TOKEN: undefined,
        GH_TOKEN: undefined,
        CLAUDE_CODE_SESSION_ID: "session-1",
        ...(temp === undefined ? {} : { TMPDIR: temp }),
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
      security: "strict",
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
    // One line per validation as the gate finishes it, before the push.
    const out = result.stdout;
    expect(out).toMatch(
      /final-gate +✓ p1\.1 consistency: test -f src\/login-form\.tsx \(exit 0\)/,
    );
    expect(out.indexOf("final-gate")).toBeLessThan(out.indexOf("push "));
    expect(out).toMatch(
      /✓ push +final gate: 7 validations passed on the commit; feat\/login-form → origin/,
    );
    // The fresh evidence proves the code main has on the remote now, and names the commit that was pushed.
    const proof = evidence(repo);
    expect(proof.by).toBe("playbook-reprove");
    const clone = mkdtempSync(join(tmpdir(), "playbook-pushed-"));
    execFileSync("git", ["clone", "-q", repo.remoteDir, clone]);
    expect(proof.detail.tree).toBe(readWorkingTree(clone).fingerprint);
    expect(() =>
      execFileSync(
        "git",
        ["merge-base", "--is-ancestor", String(proof.detail.commit), "main"],
        { cwd: repo.remoteDir },
      ),
    ).not.toThrow();
  });

  it("code broken after verify and committed is not merged: the failing validation is named with its command, exit code and output", () => {
    const repo = finishedWith(
      "automated - grep -q LoginForm src/login-form.tsx || (echo LoginForm is gone; exit 3)",
    );
    // The evidence passed; then the work is broken and committed before the archive.
    repo.write("src/login-form.tsx", "export const Nothing = 1;\n");
    repo.git("add", "src/login-form.tsx");
    repo.git("commit", "-q", "-m", "tidy up");
    const mainBefore = remoteMain(repo);

    const result = archive(repo);

    expect(result.status).not.toBe(0);
    const out = result.stdout + result.stderr;
    expect(out).toContain("the final proof failed");
    expect(out).toContain(
      "p1.1 consistency `grep -q LoginForm src/login-form.tsx || (echo LoginForm is gone; exit 3)` (exit 3): the validation fails; its output ends: LoginForm is gone; nothing was pushed.",
    );
    expect(out).toMatch(/final-gate +✗ p1\.1 consistency: .* \(exit 3\)/);
    expect(out).toContain(
      "commit the fix, then run `playbook archive --resume`",
    );
    expect(remoteMain(repo)).toBe(mainBefore);
    expect(remoteBranches(repo)).not.toContain("feat/login-form");
  });

  it.each([
    [
      "a box unticked",
      (text: string) => text.replace("- [x] **p1.1**", "- [ ] **p1.1**"),
      "p1.1 is not checked",
    ],
    [
      "the failing subtask removed",
      (text: string) =>
        text.replace(/- \[x\] \*\*p1\.1\*\*[\s\S]*?(?=- \[X\] \*\*p1\.2)/, ""),
      "the plan changed after the reviewer approved it",
    ],
  ])(
    "%s in a commit after the gate refused does not let --resume skip the validation",
    (_name, change, why) => {
      const repo = finishedWith("automated - test -f missing.txt");
      expect(archive(repo).status).not.toBe(0);
      // The way around the failing validation: change the committed playbook, then resume (which skips readiness).
      repo.write(PLAYBOOK_PATH, change(repo.read(PLAYBOOK_PATH)));
      repo.git("add", PLAYBOOK_PATH);
      repo.git("commit", "-q", "-m", "scope");

      const result = archive(repo, "--resume");

      expect(result.status).not.toBe(0);
      expect(result.stdout + result.stderr).toContain(why);
      expect(remoteBranches(repo)).not.toContain("feat/login-form");
    },
  );

  it("a file planted in the project outside the commit cannot make a validation pass: the checkout's project is hidden", () => {
    // A project outside the host's temp folder, which the sandbox hides anyway: as a user's project is.
    const hostTemp = tmpdir();
    const outside = join(import.meta.dirname, "..", "..", ".test-projects");
    mkdirSync(outside, { recursive: true });
    process.env["TMPDIR"] = outside;
    let repo: GuardedRepo;
    try {
      // The committed check climbs out of the clean checkout into the project, where an uncommitted file waits.
      repo = finishedWith("automated - sh check.sh", {
        "check.sh": "cat ../../../../../planted.txt\n",
        "planted.txt": "the answer\n",
        ".gitignore": ".claude/playbook/\nplanted.txt\n",
      });
    } finally {
      process.env["TMPDIR"] = hostTemp;
    }
    expect(repo.dir.startsWith(outside)).toBe(true);

    const result = archive(repo, "--", hostTemp);

    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("p1.1 consistency");
    expect(remoteBranches(repo)).not.toContain("feat/login-form");
  });

  it("a gate with a time budget (the hook's) stops the validation that outlasts it and runs none after it", () => {
    const repo = finishedWith("automated - sleep 60");
    repo.git("add", "-A");
    repo.git("commit", "-q", "-m", "work");

    const result = runCli([
      "check",
      "--rerun",
      "--json",
      "--at",
      "HEAD",
      "--record",
      "--budget",
      "3",
      "--playbook",
      PLAYBOOK_PATH,
      "--cwd",
      repo.dir,
    ]);

    const { rerun } = JSON.parse(result.stdout) as {
      rerun: {
        ok: boolean;
        outOfTime: boolean;
        rows: { subtask: string; validation: string; problem: string | null }[];
      };
    };
    expect(rerun.ok).toBe(false);
    expect(rerun.outOfTime).toBe(true);
    const at = rerun.rows.findIndex(
      (r) => r.subtask === "p1.1" && r.validation === "consistency",
    );
    expect(rerun.rows[at]?.problem).toMatch(
      /^(stopped|not run): the gate's time \(3 s\) ran out$/,
    );
    expect(rerun.rows.slice(at + 1).map((r) => r.problem)).toEqual(
      rerun.rows
        .slice(at + 1)
        .map(() => "not run: the gate's time (3 s) ran out"),
    );
  });

  it("resumed after a conflict stopped the merge (the playbook already moved to plan/archive/), the gate proves the archived playbook and the archive ends merged", () => {
    const repo = finishedWith("automated - test -f src/login-form.tsx");
    pushConflictingWorkToMain(repo);
    const stopped = archive(repo);
    expect(stopped.stdout).toContain("✗ merge");
    expect(existsSync(repo.path(PLAYBOOK_PATH))).toBe(false);

    repo.write("src/login-form.tsx", "export const LoginForm = () => null;\n");
    repo.git("add", "src/login-form.tsx");
    repo.git("commit", "-q", "--no-edit");
    const resumed = archive(repo, "--resume");

    expect(resumed.status, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(
      /✓ push +final gate: 7 validations passed on the commit/,
    );
    expect(resumed.stdout).toContain("archived plan/playbook-login-form.md");
  });

  it("archives and merges when every validation run again agrees", () => {
    const repo = finishedWith("automated - test -f src/login-form.tsx");

    const result = archive(repo);

    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(remoteBranches(repo)).toContain("main");
    expect(repo.git("log", "main", "--oneline")).toContain("archive");
  });
});
