import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createFinishedRepo,
  FINISHED_PLAYBOOK,
} from "../helpers/finished-repo.ts";
import {
  PLAYBOOK,
  runByPlaybook,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";

/** Every hook git runs while the archive commits, switches, merges and pushes. */
const HOOKS = [
  "pre-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "reference-transaction",
  "post-checkout",
  "pre-merge-commit",
  "post-merge",
  "pre-push",
];

/**
 * A project whose git hooks live in the working tree (as husky sets up: `core.hooksPath` pointing at `.husky`), with
 * hooks the agent wrote: each leaves a mark outside the project and forges a record. The hooks are part of the work
 * the evidence proves, as they would be.
 */
function repoWithAgentHooks(): { repo: GuardedRepo; marks: string } {
  const marks = mkdtempSync(join(tmpdir(), "playbook-marks-"));
  const forge = (name: string) =>
    `#!/bin/sh\ntouch "${marks}/${name}"\nmkdir -p .claude/playbook/records/forged && echo '{}' > .claude/playbook/records/forged/${name}.json\nexit 0\n`;
  const repo = createFinishedRepo(
    {
      playbook: FINISHED_PLAYBOOK.replace("- [x] **ft1**", "- [ ] **ft1**"),
    },
    Object.fromEntries(HOOKS.map((name) => [`.husky/${name}`, forge(name)])),
    (r) => {
      for (const name of HOOKS) chmodSync(r.path(`.husky/${name}`), 0o755);
      r.git("config", "core.hooksPath", ".husky");
    },
  );
  return { repo, marks };
}

function tickFinalTask(repo: GuardedRepo) {
  repo.write(PLAYBOOK, FINISHED_PLAYBOOK);
  return repo.hook(
    "PostToolUse",
    {
      tool_name: "Edit",
      tool_input: {
        file_path: repo.path(PLAYBOOK),
        old_string: "- [ ] **ft1**",
        new_string: "- [x] **ft1**",
      },
      tool_response: { filePath: repo.path(PLAYBOOK), success: true },
      tool_use_id: "toolu_9",
    },
    { GITHUB_TOKEN: undefined, GH_TOKEN: undefined },
  );
}

describe("git hooks the agent can write never run outside its sandbox", () => {
  it("the archive the hook runs commits, merges and pushes without running them: no mark, no forged record", () => {
    const { repo, marks } = repoWithAgentHooks();

    const reply = tickFinalTask(repo);

    expect(reply.context).toContain("merged into main");
    expect(
      execFileSync("git", ["ls-tree", "--name-only", "main", "plan/archive/"], {
        cwd: repo.remoteDir,
        encoding: "utf8",
      }).trim(),
    ).toBe("plan/archive/playbook-login-form.md");
    expect(readdirSync(marks)).toEqual([]);
    expect(existsSync(repo.path(".claude/playbook/records/forged"))).toBe(
      false,
    );
  });

  it("nor does the archive the agent asks for in Bash, which the hook runs as its own job", () => {
    const { repo, marks } = repoWithAgentHooks();
    repo.write(PLAYBOOK, FINISHED_PLAYBOOK);

    const shown = runByPlaybook(repo.bash("npx --no playbook archive"));

    expect(shown.status, shown.output).toBe(0);
    expect(
      repo.git("ls-tree", "--name-only", "main", "plan/archive/").trim(),
    ).toBe("plan/archive/playbook-login-form.md");
    expect(readdirSync(marks)).toEqual([]);
    expect(existsSync(repo.path(".claude/playbook/records/forged"))).toBe(
      false,
    );
  });

  it("a person's own terminal keeps git's hooks", () => {
    const { repo, marks } = repoWithAgentHooks();
    repo.write(PLAYBOOK, FINISHED_PLAYBOOK);

    const result = runCli(
      ["archive", "--provider", "local", "--cwd", repo.dir],
      {
        env: {
          GITHUB_TOKEN: undefined,
          GH_TOKEN: undefined,
          PLAYBOOK_HOOK_PROCESS: undefined,
        },
      },
    );

    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(marks)).toContain("pre-commit");
  });
});
