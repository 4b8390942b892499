import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFinishedRepo } from "../helpers/finished-repo.ts";
import { PLAYBOOK } from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";

const check = (dir: string, ...args: string[]) =>
  runCli(["check", "--cwd", dir, ...args], {
    env: { GITHUB_ACTIONS: undefined },
  });

describe("playbook check", () => {
  it("passes a finished playbook whose every claim has a current record", () => {
    const repo = createFinishedRepo();
    const result = check(repo.dir);
    expect(result.stdout).toContain(
      "1 playbook: every claim has a current record",
    );
    expect(result.status).toBe(0);
  });

  it("fails a checked box, a done phase and reviewed: true whose records are missing, at their lines", () => {
    const repo = createFinishedRepo();
    rmSync(repo.path(".claude/playbook/records"), {
      recursive: true,
      force: true,
    });
    const result = check(repo.dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `${PLAYBOOK}:\\d+:\\d+\\s+error\\s+Unexpected \`reviewed: true\` without the reviewer's approval`,
      ),
    );
    expect(result.stdout).toMatch(
      /error\s+Unexpected checked p1\.1 without current proof \(technical: passing evidence/,
    );
    expect(result.stdout).toMatch(
      /error\s+Unexpected phase p1 `done` without the critic's current verdict/,
    );
    expect(result.stdout).toContain("[checked-unbacked]");
  });

  it("a criterion edited after its proof makes that proof stale", () => {
    const repo = createFinishedRepo();
    repo.write(
      PLAYBOOK,
      repo.read(PLAYBOOK).replace(/(\*\*p1\.1\*\*: )/, "$1(edited) "),
    );
    const result = check(repo.dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      "Unexpected checked p1.1 without current proof",
    );
    expect(result.stdout).not.toContain("checked p2.1");
  });

  it("speaks GitHub Actions annotations in a workflow", () => {
    const repo = createFinishedRepo();
    rmSync(repo.path(".claude/playbook/records"), {
      recursive: true,
      force: true,
    });
    const result = runCli(["check", "--cwd", repo.dir], {
      env: { GITHUB_ACTIONS: "true" },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `^::error file=${PLAYBOOK.replace(/\./g, "\\.")},line=\\d+,col=\\d+,title=playbook checked-unbacked::Unexpected checked p1\\.1`,
        "m",
      ),
    );
  });
});
