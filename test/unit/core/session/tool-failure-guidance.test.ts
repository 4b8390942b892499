import { describe, expect, it } from "vitest";
import { editFailureGuidance } from "../../../../src/core/session/tool-failure-guidance.ts";
import {
  failureSignature,
  repeatedFailures,
  emptySessionState,
} from "../../../../src/core/session/session-state.ts";

describe("editFailureGuidance", () => {
  const input = { file_path: "/repo/src/a.ts" };
  it.each([
    [
      "String to replace not found in file.\nString: foo",
      /Read `\/repo\/src\/a.ts` again/,
    ],
    [
      "Found 3 matches of the string to replace, but replace_all is false.",
      /Widen it|replace_all: true/,
    ],
    [
      "File has not been read yet. Read it first before writing to it.",
      /was not Read/,
    ],
    [
      "File has been modified since read, either by the user or by a linter.",
      /changed after it was read/,
    ],
    ["File does not exist.", /does not exist.*Write/],
  ])("%s", (error, expected) => {
    expect(editFailureGuidance("Edit", error, input)).toMatch(expected);
  });

  it("says nothing for other tools and other errors", () => {
    expect(
      editFailureGuidance("Bash", "File does not exist.", input),
    ).toBeNull();
    expect(
      editFailureGuidance("Edit", "Permission denied by the user", input),
    ).toBeNull();
  });
});

describe("failure signatures", () => {
  it("blur paths and times so the same failure reads the same", () => {
    expect(
      failureSignature("Bash", "Exit code 1\nFAIL /tmp/a1/x.test.ts (12 ms)"),
    ).toBe("Bash: Exit code 1");
    expect(
      failureSignature("Edit", "String to replace not found in /repo/a.ts"),
    ).toBe(
      failureSignature("Edit", "String to replace not found in /other/b.ts"),
    );
    expect(failureSignature("Bash", "took 12ms")).toBe(
      failureSignature("Bash", "took 340ms"),
    );
  });

  it("count only the newest run of the same signature", () => {
    const state = emptySessionState();
    state.failures = ["a", "b", "b", "b"].map((signature) => ({
      signature,
      summary: signature,
    }));
    expect(repeatedFailures(state)).toBe(3);
    expect(repeatedFailures(emptySessionState())).toBe(0);
  });
});
