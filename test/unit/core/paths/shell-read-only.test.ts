import { describe, expect, it } from "vitest";
import {
  isPlainBranchSwitch,
  planShellReadOnly,
} from "../../../../src/core/paths/shell-read-only.ts";

const facts = {
  security: "strict" as const,
  lock: false,
  branch: "main",
  defaultBranch: "main",
  rootNames: () => ["src", ".git", "plan", "state.md", "README.md", ".claude"],
};

describe("planShellReadOnly", () => {
  it("under the post-loop lock the whole project, .git included", () => {
    expect(
      planShellReadOnly({ ...facts, branch: "feat/x", lock: true }),
    ).toEqual({
      kind: "post-loop-lock",
      denyWrite: ["."],
    });
  });
  it("on the default branch every root entry but .git, plan and state.md", () => {
    expect(planShellReadOnly(facts)).toEqual({
      kind: "default-branch",
      branch: "main",
      denyWrite: [".claude", "README.md", "src"],
    });
  });
  it("nothing on the playbook's branch, in developer mode, or without a branch", () => {
    expect(planShellReadOnly({ ...facts, branch: "feat/x" }).kind).toBe("none");
    expect(
      planShellReadOnly({ ...facts, security: "developer", lock: true }).kind,
    ).toBe("none");
    expect(planShellReadOnly({ ...facts, branch: null }).kind).toBe("none");
  });
});

describe("isPlainBranchSwitch", () => {
  it.each([
    ["git switch feat/multiply", true],
    ["git checkout feat/multiply", false],
    ["git checkout src", false],
    ["git switch main", false],
    ["git switch feat/x && echo x > src/a.ts", false],
    ["git checkout -- src/a.ts", false],
    ["git switch -c feat/x", false],
    ["git checkout HEAD~1", false],
  ])("%s -> %s", (command, expected) => {
    expect(isPlainBranchSwitch(command, "main")).toBe(expected);
  });
});
