import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  PLAYBOOK,
  runByPlaybook,
} from "../helpers/guarded-repo.ts";
import { CLI_BUNDLE, childEnv } from "../helpers/run-cli.ts";
import { SAMPLE_PLAYBOOK } from "../helpers/sample-docs.ts";

/** The sample playbook with p1.1's automated validations as commands that pass here. */
const PLAYBOOK_TEXT = SAMPLE_PLAYBOOK.replace(
  '"automated - npx vitest run test/login-form.test.ts"',
  '"automated - node -e \\"process.exit(0)\\""',
).replace("'automated - npx tsc --noEmit'", "'automated - node --version'");

const TICK = { old_string: "- [ ] **p1.1**", new_string: "- [x] **p1.1**" };

describe("proof along the Golden Path: hook and CLI together", () => {
  it("review and verify run by the hook itself, a person's confirmation, then the tick is allowed", () => {
    const repo = createGuardedRepo({
      reviewed: false,
      playbook: PLAYBOOK_TEXT,
    });
    const cli = (
      args: string[],
      env: Record<string, string | undefined> = {},
    ) =>
      spawnSync(process.execPath, [CLI_BUNDLE, ...args, "--cwd", repo.dir], {
        encoding: "utf8",
        env: childEnv({ CLAUDECODE: "1", ...env }),
      });
    const writeSource = () =>
      repo.pre("Write", {
        file_path: repo.path("src/login-form.tsx"),
        content: "export {}\n",
      });

    expect(writeSource().reason).toContain("is not reviewed yet");

    // The main agent cannot approve; the CLI alone refuses too.
    expect(repo.bash("playbook review approve").decision).toBe("deny");
    expect(cli(["review", "approve"]).status).toBe(1);

    // The reviewer's call is run by the hook itself (outside the agent's shell): the agent sees its output.
    const approved = runByPlaybook(
      repo.bash("playbook review approve", {
        agent_type: "reviewer",
        agent_id: "a1f3c9",
      }),
    );
    expect(approved.output).toContain("approved plan/playbook-login-form.md");
    expect(approved.status).toBe(0);
    expect(repo.read(PLAYBOOK)).toContain("reviewed: true");
    expect(writeSource().decision).toBeNull();

    // Ticking needs proof.
    expect(
      repo.pre("Edit", { file_path: repo.path(PLAYBOOK), ...TICK }).reason,
    ).toContain("technical: no evidence record");
    const verified = runByPlaybook(repo.bash("npx --no playbook verify p1.1"));
    expect(verified.status).toBe(0);
    expect(verified.output).toContain("p1.1");
    const afterVerify = repo.pre("Edit", {
      file_path: repo.path(PLAYBOOK),
      ...TICK,
    });
    expect(afterVerify.reason).toContain(
      "completeness: no confirmation by the user",
    );
    expect(afterVerify.reason).not.toContain("technical");

    // A person confirms in a real terminal (no CLAUDECODE in their shell).
    const confirmed = spawnSync(
      "script",
      [
        "-qec",
        `'${process.execPath}' '${CLI_BUNDLE}' confirm p1.1 --cwd '${repo.dir}'`,
        "/dev/null",
      ],
      {
        input: "p1.1\n",
        encoding: "utf8",
        env: childEnv({ CLAUDECODE: undefined, NO_COLOR: "1" }),
      },
    );
    expect(confirmed.stdout).toContain("confirmed p1.1");

    expect(
      repo.pre("Edit", { file_path: repo.path(PLAYBOOK), ...TICK }).decision,
    ).toBeNull();

    // Changing the criterion now makes the review and the proof stale: scope blocks it in strict mode.
    const creep = repo.pre("Edit", {
      file_path: repo.path(PLAYBOOK),
      old_string: "exports `LoginForm`",
      new_string: "exports `LoginForm` and more",
    });
    expect(creep.reason).toContain("subtask criteria");
  });
});
