import { describe, expect, it } from "vitest";
import { mayClaimProof } from "../../../../src/core/edit/may-claim-proof.ts";

describe("mayClaimProof, the hint that starts the tree reading early", () => {
  it.each([
    ["Edit", { file_path: "/p/plan/a.md", new_string: "- [x] **p1.1**" }, true],
    [
      "Edit",
      { file_path: "/p/plan/a.md", new_string: "**status**: done" },
      true,
    ],
    [
      "MultiEdit",
      {
        file_path: "/p/plan/a.md",
        edits: [{ new_string: "a" }, { new_string: "result: PASS" }],
      },
      true,
    ],
    ["Write", { file_path: "/p/plan/a.MD", content: "- [X] **p1.1**" }, true],
    [
      "Edit",
      { file_path: "/p/plan/a.md", new_string: "- [ ] **p1.1**" },
      false,
    ],
    ["Edit", { file_path: "/p/src/a.ts", new_string: "[x]" }, false],
    ["Bash", { command: "echo '[x]' > plan/a.md" }, false],
    ["MultiEdit", { file_path: "/p/plan/a.md", edits: "not a list" }, false],
  ] as const)("%s %j → %s", (tool, input, expected) => {
    expect(mayClaimProof(tool, input as Record<string, unknown>)).toBe(
      expected,
    );
  });
});
