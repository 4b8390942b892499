import { describe, expect, it } from "vitest";
import {
  gitHubHosts,
  planGitHubAuth,
} from "../../../../src/core/archive/git-auth.ts";

const header = (token: string) =>
  `Authorization: basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;

describe("planGitHubAuth: the token reaches GitHub over https, and nothing else", () => {
  it.each([
    [
      "https://github.com/acme/app.git",
      [["http.https://github.com/.extraHeader", header("t0k")]],
    ],
    [
      "https://someone@github.com/acme/app",
      [["http.https://github.com/.extraHeader", header("t0k")]],
    ],
    [
      "https://ghe.example.com:8443/acme/app.git",
      [["http.https://ghe.example.com:8443/.extraHeader", header("t0k")]],
    ],
    ["http://github.com/acme/app.git", []],
    ["git@github.com:acme/app.git", []],
    ["ssh://git@github.com/acme/app.git", []],
    ["https://gitlab.com/acme/app.git", []],
    ["https://github.com.evil.example/acme/app.git", []],
    ["/srv/git/app.git", []],
  ])("%s", (url, expected) => {
    expect(
      planGitHubAuth(
        url,
        "t0k",
        gitHubHosts(["https://ghe.example.com/api/v3"]),
      ),
    ).toEqual(expected);
  });

  it("nothing without a token or a remote", () => {
    expect(
      planGitHubAuth("https://github.com/a/b", null, ["github.com"]),
    ).toEqual([]);
    expect(planGitHubAuth(null, "t0k", ["github.com"])).toEqual([]);
  });

  it("the hosts: github.com, and those of the API URLs the user set (api.github.com is github.com's)", () => {
    expect(
      gitHubHosts([
        "https://api.github.com",
        null,
        "https://GHE.example.com/api/v3",
        undefined,
      ]),
    ).toEqual(["github.com", "ghe.example.com"]);
  });
});
