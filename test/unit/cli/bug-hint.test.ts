import { describe, expect, it } from "vitest";
import { bugHint } from "../../../src/cli/print/failure.ts";

describe("bugHint", () => {
  it("names package.json's bugs URL and the version when there is one", () => {
    expect(bugHint("1.2.3", "https://example.test/issues")).toBe(
      "This is a bug in playbook 1.2.3. Please report it at https://example.test/issues, with the text above.",
    );
  });

  it("points at `npm bugs playbook-kit` when package.json names no tracker", () => {
    const hint = bugHint("1.2.3", null);
    expect(hint).toContain("playbook 1.2.3");
    expect(hint).toContain("`npm bugs playbook-kit`");
  });
});
