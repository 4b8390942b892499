import { chmodSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createFinishedRepo,
  FINISHED_PLAYBOOK,
} from "../helpers/finished-repo.ts";
import { PLAYBOOK } from "../helpers/guarded-repo.ts";

/**
 * A PATH as some setups have it (direnv's `PATH_add node_modules/.bin`, a relative `./bin`), which puts folders the
 * agent can write before the system's: the agent planted `git` and `bwrap` there, each of which leaves a mark outside
 * the project and forges a record.
 */
describe("programs the agent planted on PATH never run in a hook process", () => {
  it("the tick's fingerprint and the archive use the system's git: no mark, no forged record, the work merged", () => {
    const marks = mkdtempSync(join(tmpdir(), "playbook-marks-"));
    const planted = (name: string) =>
      `#!/bin/sh\ntouch "${marks}/${name}"\nmkdir -p .claude/playbook/records/forged && echo '{}' > .claude/playbook/records/forged/${name}.json\nexit 0\n`;
    const repo = createFinishedRepo(
      {
        playbook: FINISHED_PLAYBOOK.replace("- [x] **ft1**", "- [ ] **ft1**"),
      },
      { "bin/git": planted("git"), "bin/bwrap": planted("bwrap") },
      (r) => {
        chmodSync(r.path("bin/git"), 0o755);
        chmodSync(r.path("bin/bwrap"), 0o755);
      },
    );
    const env = {
      PATH: `${repo.path("bin")}:bin:${process.env["PATH"] ?? ""}`,
      GITHUB_TOKEN: undefined,
      GH_TOKEN: undefined,
    };
    const tick = {
      file_path: repo.path(PLAYBOOK),
      old_string: "- [ ] **ft1**",
      new_string: "- [x] **ft1**",
    };

    const pre = repo.hook(
      "PreToolUse",
      {
        permission_mode: "default",
        tool_name: "Edit",
        tool_input: tick,
        tool_use_id: "toolu_1",
      },
      env,
    );
    expect(pre.decision, pre.reason).toBeNull();
    repo.write(PLAYBOOK, FINISHED_PLAYBOOK);
    const post = repo.hook(
      "PostToolUse",
      {
        tool_name: "Edit",
        tool_input: tick,
        tool_response: { filePath: repo.path(PLAYBOOK), success: true },
        tool_use_id: "toolu_1",
      },
      env,
    );

    expect(post.context).toContain("merged into main");
    expect(readdirSync(marks)).toEqual([]);
    expect(existsSync(repo.path(".claude/playbook/records/forged"))).toBe(
      false,
    );
  });
});
