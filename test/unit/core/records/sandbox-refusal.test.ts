import { describe, expect, it } from "vitest";
import {
  findSandboxRefusal,
  REFUSAL_LINE,
  type SandboxReach,
} from "../../../../src/core/records/sandbox-refusal.ts";

const REACH: SandboxReach = {
  root: "/p",
  tempDir: "/tmp/playbook-verify-1",
  writable: ["/p", "/tmp/playbook-verify-1", "/home/u/.npm/_cacache"],
  guarded: ["/p/.claude/playbook", "/p/.claude/playbook.json", "/p/.git"],
  allowedDomains: ["registry.npmjs.org"],
  refusesWritesWith: "EROFS",
};

const refusal = (lines: string[], violations: string[] = [], reach = REACH) =>
  findSandboxRefusal({
    lines: lines.filter((l) => REFUSAL_LINE.test(l)),
    violations,
    reach,
  });

describe("what the sandbox refused a failed validation", () => {
  it.each([
    [
      "a write outside what it may write",
      ["Error: EROFS: read-only file system, open '/home/u/.cache/x/y.json'"],
      { what: "a write to /home/u/.cache/x/y.json", key: "verify.allowWrite" },
    ],
    [
      "a write told by mkdir",
      ["mkdir: cannot create directory ‘/var/lib/x’: Read-only file system"],
      { what: "a write to /var/lib/x", key: "verify.allowWrite" },
    ],
    [
      "a trust path, named as in the project",
      [
        "/usr/bin/bash: line 1: .claude/playbook/records/f.json: Read-only file system",
      ],
      { what: "a write to .claude/playbook/records/f.json", key: null },
    ],
    [
      "a shell's dotfile the sandbox keeps read-only",
      ["OSError: [Errno 30] Read-only file system: '/p/.bashrc'"],
      { what: "a write to .bashrc", key: null },
    ],
    [
      "a unix socket outside its temp folder (macOS)",
      ["Error: listen EPERM: operation not permitted /p/run/app.sock"],
      { what: "a unix socket at /p/run/app.sock", key: null },
    ],
    [
      "a name it could not resolve, with the host",
      ["Error: getaddrinfo EAI_AGAIN api.github.com"],
      { what: "a connection to api.github.com", key: "verify.allowedDomains" },
    ],
    [
      "curl's name not resolved",
      ["curl: (6) Could not resolve host: example.org"],
      { what: "a connection to example.org", key: "verify.allowedDomains" },
    ],
  ])("%s", (_name, lines, expected) => {
    expect(refusal(lines)).toMatchObject(expected);
  });

  it("on macOS reads 'Operation not permitted' outside what it may write as the sandbox's", () => {
    const line = "touch: /Users/u/.cache/x: Operation not permitted";
    expect(refusal([line])).toBeNull();
    expect(
      refusal([line], [], { ...REACH, refusesWritesWith: "EPERM" }),
    ).toMatchObject({
      what: "a write to /Users/u/.cache/x",
      key: "verify.allowWrite",
    });
  });

  it("reads the connections the sandbox itself reports first", () => {
    expect(
      refusal(
        ["AssertionError: expected 1 to be 2"],
        [
          "deny network-outbound github.com:443 (host is not on the allow list)",
        ],
      ),
    ).toEqual({
      what: "a connection to github.com",
      key: "verify.allowedDomains",
      why: null,
    });
  });

  it.each([
    ["a failure of the code", ["AssertionError: expected 1 to be 2"]],
    [
      "a refused write inside what it may write (the code's own permissions)",
      ["Error: EPERM: operation not permitted, chmod '/p/build/x'"],
    ],
    [
      "an operation not permitted outside, on Linux (a chmod of a file of root's)",
      ["chmod: changing permissions of '/usr/bin/x': Operation not permitted"],
    ],
    [
      "a socket in its temp folder",
      ["listen EPERM: operation not permitted /tmp/playbook-verify-1/a.sock"],
    ],
    [
      "an allowed host that did not answer",
      ["getaddrinfo ENOTFOUND registry.npmjs.org"],
    ],
    [
      "a refusal that names no path",
      ["PermissionError: [Errno 1] Operation not permitted"],
    ],
  ])("blames nothing on the sandbox for %s", (_name, lines) => {
    expect(refusal(lines)).toBeNull();
  });
});
