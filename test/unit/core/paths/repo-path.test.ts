import { describe, expect, it } from "vitest";
import {
  isPlaybookPath,
  isRepairPath,
  toRepoPath,
} from "../../../../src/core/paths/repo-path.ts";

describe("toRepoPath", () => {
  it.each([
    ["/repo/src/a.ts", "/repo", "src/a.ts"],
    ["src/a.ts", "/repo", "src/a.ts"],
    ["../plan/x.md", "/repo/src", "plan/x.md"],
    ["/repo/src/../state.md", "/repo", "state.md"],
    ["./plan/./playbook-a.md", "/repo", "plan/playbook-a.md"],
    ["C:\\repo\\plan\\playbook-a.md", "C:\\repo", "plan/playbook-a.md"],
    ["plan\\playbook-a.md", "C:\\repo", "plan/playbook-a.md"],
    ["/repo", "/repo", ""],
    ["/repository/x", "/repo", null],
    ["../x", "/repo", null],
    ["/etc/passwd", "/repo", null],
  ])("%s from %s → %s", (path, cwd, expected) => {
    const root = cwd.startsWith("C:") ? "C:\\repo" : "/repo";
    expect(toRepoPath(root, cwd, path)).toBe(expected);
  });

  it("classifies playbooks and the repair path", () => {
    expect(isPlaybookPath("plan/playbook-a.md")).toBe(true);
    expect(isPlaybookPath("plan/archive/playbook-a.md")).toBe(true);
    expect(isPlaybookPath("plan/template/playbook-format.md")).toBe(true);
    expect(isPlaybookPath("docs/playbook-a.md")).toBe(false);
    expect(isRepairPath("state.md")).toBe(true);
    expect(isRepairPath("plan/anything.txt")).toBe(true);
    expect(isRepairPath("src/state.md")).toBe(false);
  });
});
