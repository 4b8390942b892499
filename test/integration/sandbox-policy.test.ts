import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unixSocketPolicy } from "../../src/adapters/sandbox.ts";
import { dependencyLinkTargets } from "../../src/adapters/dependency-links.ts";
import { createTempProject } from "../helpers/temp-project.ts";

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

describe("a project's linked dependencies stay readable in verify's sandbox", () => {
  it("names the node_modules folder that holds each linked package, scoped ones too, and a linked virtualenv", () => {
    const store = createTempProject({
      "lib/node_modules/tool/package.json": "{}",
      "lib/node_modules/@scope/kit/package.json": "{}",
      "envs/py/bin/activate": "",
      "plain/pkg/package.json": "{}",
    });
    const p = createTempProject({ "node_modules/ordinary/package.json": "{}" });
    mkdirSync(p.path("node_modules/@scope"));
    symlinkSync(
      store.path("lib/node_modules/tool"),
      p.path("node_modules/tool"),
    );
    symlinkSync(
      store.path("lib/node_modules/@scope/kit"),
      p.path("node_modules/@scope/kit"),
    );
    symlinkSync(store.path("envs/py"), p.path(".venv"));
    writeFileSync(store.path("envs/py/pyvenv.cfg"), "home = /usr/bin\n");

    expect(dependencyLinkTargets(p.dir).sort()).toEqual(
      [store.path("lib/node_modules"), store.path("envs/py")].sort(),
    );
  });

  it("opens nothing the sandbox hides: links to /, to a hidden folder or to a folder holding one are left out", () => {
    const hidden = createTempProject({
      "run/docker.sock": "",
      "plain/pkg/package.json": "{}",
    });
    const p = createTempProject({ "node_modules/ordinary/package.json": "{}" });
    symlinkSync("/", p.path("node_modules/root"));
    symlinkSync(hidden.path("run"), p.path("node_modules/run"));
    symlinkSync(hidden.dir, p.path("node_modules/above"));
    symlinkSync(hidden.path("plain/pkg"), p.path("node_modules/pkg"));

    expect(dependencyLinkTargets(p.dir, [hidden.path("run")])).toEqual([]);
  });

  it("names nothing for a project whose dependencies are all its own", () => {
    const p = createTempProject({ "node_modules/ordinary/package.json": "{}" });
    expect(dependencyLinkTargets(p.dir)).toEqual([]);
  });
});
