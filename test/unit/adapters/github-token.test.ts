import { describe, expect, it } from "vitest";
import { findGitHubToken } from "../../../src/adapters/github-token.ts";

describe("findGitHubToken", () => {
  it.each([
    ["GITHUB_TOKEN first", { GITHUB_TOKEN: "a", GH_TOKEN: "b" }, "gh", "a"],
    ["then GH_TOKEN", { GH_TOKEN: "b" }, "gh", "b"],
    ["then gh auth token", {}, "c\n", "c"],
    [
      "blank variables do not count",
      { GITHUB_TOKEN: " ", GH_TOKEN: "" },
      "c",
      "c",
    ],
    ["none", {}, null, null],
  ])("%s", (_name, env, gh, expected) => {
    let asked = 0;
    const token = findGitHubToken(env, () => {
      asked++;
      return gh;
    });
    expect(token).toBe(expected);
    // gh is started only when no variable holds a token.
    expect(asked).toBe(
      "GITHUB_TOKEN" in env && env.GITHUB_TOKEN !== " "
        ? 0
        : "GH_TOKEN" in env && env.GH_TOKEN
          ? 0
          : 1,
    );
  });
});
