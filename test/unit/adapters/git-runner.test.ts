import { describe, expect, it } from "vitest";
import {
  gitInvocation,
  NO_PROGRAMS,
  PLAIN_SSH,
  type GitCall,
  type RepositoryLayout,
} from "../../../src/adapters/git-runner.ts";

/** A person's environment that steers git every way it can: each of these would reach a hardened git otherwise. */
const STEERING = {
  GIT_DIR: "/elsewhere/.git",
  GIT_WORK_TREE: "/elsewhere",
  GIT_INDEX_FILE: "/elsewhere/index",
  GIT_COMMON_DIR: "/elsewhere/common",
  GIT_CONFIG_GLOBAL: "/home/u/.gitconfig-work",
  GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='evil'",
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "core.fsmonitor",
  GIT_CONFIG_VALUE_0: "evil",
  GIT_SSH_COMMAND: "evil-ssh",
  GIT_SSH: "evil-ssh",
  GIT_ASKPASS: "evil-askpass",
  GIT_EDITOR: "evil-editor",
  GIT_SEQUENCE_EDITOR: "evil-editor",
  GIT_PAGER: "evil-pager",
  GIT_EXTERNAL_DIFF: "evil-diff",
  GIT_EXEC_PATH: "/evil/libexec",
  GIT_TEMPLATE_DIR: "/evil/templates",
  GIT_PROXY_COMMAND: "evil-proxy",
  GIT_TRACE2_EVENT: "/tmp/trace",
  GIT_SSL_NO_VERIFY: "1",
  SSH_ASKPASS: "evil-askpass",
  SSH_ASKPASS_REQUIRE: "force",
  EDITOR: "evil-editor",
  VISUAL: "evil-editor",
  PAGER: "evil-pager",
  LESS: "-R",
  XDG_CONFIG_HOME: "/home/u/.config",
};
const PERSON = {
  HOME: "/home/u",
  PATH: "/usr/bin:/bin",
  SSH_AUTH_SOCK: "/run/agent.sock",
  GIT_AUTHOR_NAME: "Env Author",
  GIT_AUTHOR_EMAIL: "env@example.com",
  GIT_COMMITTER_NAME: "Env Committer",
  GIT_COMMITTER_EMAIL: "env@example.com",
  GIT_SSL_CAINFO: "/etc/ssl/corp.pem",
  ...STEERING,
};
const TRUSTED = { ...PERSON, PLAYBOOK_HOOK_PROCESS: "1" };

const call = (overrides: Partial<GitCall>): GitCall => ({
  cwd: "/repo",
  args: ["status"],
  purpose: "read",
  timeoutMs: 1000,
  env: PERSON,
  ...overrides,
});

/** The `-c` settings of an argv, as key -> value (the last one wins, as in git). */
function settingsOf(args: readonly string[]): Map<string, string> {
  const settings = new Map<string, string>();
  args.forEach((arg, i) => {
    if (args[i - 1] !== "-c") return;
    const at = arg.indexOf("=");
    settings.set(arg.slice(0, at).toLowerCase(), arg.slice(at + 1));
  });
  return settings;
}

/** The settings passed in the environment (`GIT_CONFIG_COUNT`), in order. */
function environmentSettings(env: Record<string, string>): [string, string][] {
  return Array.from(
    { length: Number(env["GIT_CONFIG_COUNT"] ?? 0) },
    (_, i) => [
      env[`GIT_CONFIG_KEY_${i}`] ?? "",
      env[`GIT_CONFIG_VALUE_${i}`] ?? "",
    ],
  );
}

describe("gitInvocation: a hardened git reads no configuration but the repository's and runs no program", () => {
  // Every key git runs a program from (or signs, verifies or reaches a transport with), and the value that runs none.
  it.each([
    ["core.hooksPath", "/dev/null"],
    ["core.fsmonitor", "false"],
    ["core.editor", "false"],
    ["sequence.editor", "false"],
    ["core.pager", "cat"],
    ["core.askPass", ""],
    ["core.sshCommand", PLAIN_SSH],
    ["core.gitProxy", ""],
    ["core.alternateRefsCommand", ""],
    ["diff.external", ""],
    ["gpg.program", "false"],
    ["gpg.openpgp.program", "false"],
    ["gpg.x509.program", "false"],
    ["gpg.ssh.program", "false"],
    ["gpg.ssh.defaultKeyCommand", ""],
    ["commit.gpgSign", "false"],
    ["tag.gpgSign", "false"],
    ["tag.forceSignAnnotated", "false"],
    ["push.gpgSign", "false"],
    ["log.showSignature", "false"],
    ["merge.verifySignatures", "false"],
    ["protocol.allow", "never"],
    ["protocol.ext.allow", undefined],
    ["submodule.recurse", "false"],
    ["fetch.recurseSubmodules", "false"],
    ["push.recurseSubmodules", "no"],
    ["gc.auto", "0"],
    ["maintenance.auto", "false"],
  ])("%s is %s for read and for a trusted act", (key, value) => {
    for (const purpose of ["read", "act"] as const) {
      const { args } = gitInvocation(call({ purpose, env: TRUSTED }));
      expect(settingsOf(args).get(key.toLowerCase())).toBe(value);
    }
  });

  it("allows only git's own transports: file, git, ssh, http and https (no ext::, fd::, or remote helper)", () => {
    const settings = settingsOf(gitInvocation(call({})).args);
    const allowed = [...settings]
      .filter(
        ([key, value]) =>
          /^protocol\..+\.allow$/.test(key) && value === "always",
      )
      .map(([key]) => key.split(".")[1]);
    expect(allowed.sort()).toEqual(["file", "git", "http", "https", "ssh"]);
  });

  it("the settings come before the caller's arguments, so a caller's -c still wins where it must", () => {
    const { args } = gitInvocation(
      call({ args: ["-c", "core.checkStat=default", "ls-files"] }),
    );
    expect(args.slice(-3)).toEqual([
      "-c",
      "core.checkStat=default",
      "ls-files",
    ]);
    expect(args.slice(0, NO_PROGRAMS.length)).toEqual([...NO_PROGRAMS]);
  });

  it("drops every GIT_ variable and the editor, pager and askpass variables it inherited, and reads no system, global or XDG file", () => {
    for (const env of [PERSON, TRUSTED]) {
      const result = gitInvocation(call({ env })).env;
      for (const key of Object.keys(STEERING))
        if (
          ![
            "GIT_CONFIG_COUNT",
            "GIT_CONFIG_KEY_0",
            "GIT_CONFIG_VALUE_0",
          ].includes(key)
        )
          expect(result[key], key).not.toBe(
            STEERING[key as keyof typeof STEERING],
          );
      expect(result).toMatchObject({
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_SYSTEM: "/dev/null",
        GIT_CONFIG_GLOBAL: "/dev/null",
        XDG_CONFIG_HOME: "/dev/null",
        GIT_ATTR_NOSYSTEM: "1",
        GIT_TERMINAL_PROMPT: "0",
      });
      expect(result["GIT_DIR"]).toBeUndefined();
      expect(result["GIT_COMMON_DIR"]).toBeUndefined();
      expect(result["GIT_EXEC_PATH"]).toBeUndefined();
      expect(environmentSettings(result)).toEqual([["credential.helper", ""]]);
      // What git needs from the person's environment stays: HOME (ssh's keys), PATH, the ssh agent.
      expect(result).toMatchObject({
        HOME: "/home/u",
        PATH: "/usr/bin:/bin",
        SSH_AUTH_SOCK: "/run/agent.sock",
      });
    }
  });

  it("a question about the tree never carries the user's identity, credentials or certificates", () => {
    const result = gitInvocation(
      call({
        purpose: "read",
        env: TRUSTED,
        identity: "env",
        remote: "origin",
        credentials: {
          secretConfig: [["http.https://github.com/.extraHeader", "secret"]],
        },
      }),
    );
    expect(result.env["GIT_AUTHOR_NAME"]).toBeUndefined();
    expect(result.env["GIT_SSL_CAINFO"]).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain("secret");
    expect(result.args.join(" ")).not.toContain("upload-pack");
  });

  it("pins the common folder it found (a .git/commondir the agent wrote is not read)", () => {
    const layout: RepositoryLayout = {
      gitDir: "/repo/.git",
      commonDir: "/repo/.git",
      sha256: false,
      refused: null,
    };
    expect(gitInvocation(call({}), layout).env["GIT_COMMON_DIR"]).toBe(
      "/repo/.git",
    );
  });
});

describe("gitInvocation: whose git acts", () => {
  it("in a person's terminal, act is the user's own git: their settings, hooks and environment", () => {
    const result = gitInvocation(call({ purpose: "act", args: ["commit"] }));
    expect(result.args).toEqual(["commit"]);
    expect(result.env).toMatchObject({
      GIT_SSH_COMMAND: "evil-ssh",
      XDG_CONFIG_HOME: "/home/u/.config",
      GIT_TERMINAL_PROMPT: "0",
    });
  });

  it("in a trusted process, act is hardened like read", () => {
    const result = gitInvocation(
      call({ purpose: "act", env: TRUSTED, args: ["commit"] }),
    );
    expect(result.args.slice(0, NO_PROGRAMS.length)).toEqual([...NO_PROGRAMS]);
    expect(result.env["GIT_SSH_COMMAND"]).toBeUndefined();
    expect(result.env["GIT_CONFIG_GLOBAL"]).toBe("/dev/null");
  });

  it("commits as the identity passed (-c user.*), dropping the environment's, or keeps the environment's when told", () => {
    const passed = gitInvocation(
      call({
        purpose: "act",
        env: TRUSTED,
        identity: { name: "Repo User", email: "repo@example.com" },
      }),
    );
    expect(settingsOf(passed.args).get("user.name")).toBe("Repo User");
    expect(settingsOf(passed.args).get("user.email")).toBe("repo@example.com");
    expect(passed.env["GIT_AUTHOR_NAME"]).toBeUndefined();
    expect(passed.env["GIT_COMMITTER_EMAIL"]).toBeUndefined();

    const none = gitInvocation(call({ purpose: "act", env: TRUSTED }));
    expect(none.env["GIT_AUTHOR_NAME"]).toBeUndefined();
    expect(settingsOf(none.args).has("user.name")).toBe(false);

    const fromEnv = gitInvocation(
      call({ purpose: "act", env: TRUSTED, identity: "env" }),
    );
    expect(fromEnv.env).toMatchObject({
      GIT_AUTHOR_NAME: "Env Author",
      GIT_AUTHOR_EMAIL: "env@example.com",
      GIT_COMMITTER_NAME: "Env Committer",
      GIT_COMMITTER_EMAIL: "env@example.com",
    });
  });

  it("passes an auth header in the environment only, after the helper reset, and never on argv", () => {
    const header: [string, string] = [
      "http.https://github.com/.extraHeader",
      "Authorization: basic c2VjcmV0",
    ];
    const result = gitInvocation(
      call({
        purpose: "act",
        env: TRUSTED,
        remote: "origin",
        credentials: { secretConfig: [header] },
      }),
    );
    expect(result.args.join("\n")).not.toContain("c2VjcmV0");
    expect(environmentSettings(result.env)).toEqual([
      ["credential.helper", ""],
      header,
    ]);
    expect(settingsOf(result.args).get("core.sshcommand")).toBe(PLAIN_SSH);
    expect(result.env["GIT_SSL_CAINFO"]).toBe("/etc/ssl/corp.pem");
  });

  it.each([
    [
      ["push", "--porcelain", "origin", "main"],
      "--receive-pack=git-receive-pack",
    ],
    [["fetch", "--quiet", "origin"], "--upload-pack=git-upload-pack"],
    [["-c", "a.b=c", "ls-remote", "origin"], "--upload-pack=git-upload-pack"],
  ])(
    "names the remote side's program on the command line (%j): the repository's receivepack/uploadpack would win over -c",
    (args, option) => {
      const result = gitInvocation(
        call({ purpose: "act", env: TRUSTED, remote: "origin", args }),
      ).args.slice(NO_PROGRAMS.length + 2);
      const at = args.findIndex((a) => !a.startsWith("-") && !a.includes("="));
      expect(result).toEqual([
        ...args.slice(0, at + 1),
        option,
        ...args.slice(at + 1),
      ]);
    },
  );

  it("lets the user's own helpers and ssh command in only when passed (archive.gitCredentials: helper)", () => {
    const result = gitInvocation(
      call({
        purpose: "act",
        env: TRUSTED,
        remote: "origin",
        credentials: {
          user: {
            helpers: [
              ["credential.helper", "osxkeychain"],
              [
                "credential.https://github.com.helper",
                "!gh auth git-credential",
              ],
            ],
            sshCommand: "ssh -i ~/.ssh/work",
          },
        },
      }),
    );
    expect(environmentSettings(result.env)).toEqual([
      ["credential.helper", ""],
      ["credential.helper", "osxkeychain"],
      ["credential.https://github.com.helper", "!gh auth git-credential"],
    ]);
    expect(settingsOf(result.args).get("core.sshcommand")).toBe(
      "ssh -i ~/.ssh/work",
    );
  });
});
