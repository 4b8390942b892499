import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unixSocketPolicy } from "../../src/adapters/sandbox.ts";

const TEMP = "/tmp/playbook-verify-x";

describe("unix sockets in verify's sandbox", () => {
  it("on Linux allows them all and hides where other programs keep theirs, except what validations may write", () => {
    const policy = unixSocketPolicy(
      "/home/u",
      TEMP,
      ["/p", TEMP],
      "/tmp/playbook-srt-x",
      "linux",
      { SSH_AUTH_SOCK: "/tmp/ssh-abc/agent.1" },
    );
    expect(policy.network).toEqual({ allowAllUnixSockets: true });
    expect(policy.denyRead).toContain("/tmp");
    if (existsSync("/run")) expect(policy.denyRead).toContain("/run");
    expect(policy.allowRead).toEqual(["/p", TEMP, "/tmp/playbook-srt-x"]);
  });

  it("hides no folder a validation may write: allowing /tmp shows it as it is", () => {
    const policy = unixSocketPolicy(
      "/home/u",
      TEMP,
      ["/p", "/tmp"],
      null,
      "linux",
      {},
    );
    expect(policy.denyRead).not.toContain("/tmp");
  });

  it("on macOS lets them bind and connect under their temp folder only", () => {
    expect(
      unixSocketPolicy("/Users/u", TEMP, ["/p", TEMP], null, "darwin", {}),
    ).toEqual({
      network: { allowUnixSockets: [TEMP] },
      denyRead: [],
      allowRead: [],
    });
  });
});
