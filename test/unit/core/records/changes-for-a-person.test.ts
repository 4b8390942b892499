import { describe, expect, it } from "vitest";
import { findChangesForAPerson } from "../../../../src/core/records/changes-for-a-person.ts";

describe("findChangesForAPerson", () => {
  it.each([
    [".github/workflows/playbook.yml", true],
    [".github/workflows/spoof.yml", true],
    [".github/actions/setup/action.yml", true],
    [".github/CODEOWNERS", true],
    [".claude/playbook.json", true],
    [".claude/protected-files.txt", true],
    [".claude/agents/critic.md", true],
    [".claude/settings.json", true],
    [".claude/hooks/playbook.cjs", true],
    [
      ".claude/playbook/records/plan-playbook-x/evidence.p1.1.technical.json",
      false,
    ],
    ["src/app.ts", false],
    ["package.json", false],
    [".github/dependabot.yml", false],
  ])("%s -> %s", (path, expected) => {
    expect(findChangesForAPerson([path])).toEqual(expected ? [path] : []);
  });
});
