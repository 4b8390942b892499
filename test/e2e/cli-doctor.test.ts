import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import {
  claudeCodeBinary,
  claudeCodeVersion,
} from "../../scripts/claude-code.ts";
import { MINIMUM_CLAUDE_CODE } from "../../src/core/scaffold/claude-code-version.ts";
import { runCli } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

/** A git repository where `playbook init` ran from this checkout, so the hooks point at dist/hook.cjs. */
function installed(): TempProject {
  const p = createTempProject({ "package.json": '{"name":"acme"}\n' });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: p.dir });
  expect(runCli(["init", "--yes", "--cwd", p.dir]).status).toBe(0);
  return p;
}

interface Finding {
  level: string;
  area: string;
  message: string;
  fix: string | null;
}

/** PATH as a shell has it: without the `node_modules/.bin` folders npm put first to run this test. */
const SHELL_PATH = (process.env["PATH"] ?? "")
  .split(":")
  .filter((entry) => !/\/(?:node_modules\/\.bin|node-gyp-bin)$/.test(entry))
  .join(":");

/** The pinned Claude Code first on the PATH, as on a developer's machine. */
const WITH_CLAUDE = `${dirname(claudeCodeBinary())}:${SHELL_PATH}`;

function doctor(
  p: TempProject,
  path = WITH_CLAUDE,
): {
  findings: Finding[];
  status: number | null;
} {
  const result = runCli(["doctor", "--json", "--cwd", p.dir], {
    env: {
      GITHUB_TOKEN: undefined,
      GH_TOKEN: undefined,
      // As typed in a shell, not run through npm (which puts its own folders on PATH).
      npm_command: undefined,
      PATH: path,
    },
  });
  return {
    findings: (JSON.parse(result.stdout) as { findings: Finding[] }).findings,
    status: result.status,
  };
}

describe("playbook doctor", () => {
  it("finds a fresh install in order, and runs the hook for real", () => {
    const { findings, status } = doctor(installed());
    expect(findings.filter((f) => f.level !== "ok")).toEqual([]);
    expect(status).toBe(0);
    const hooks = findings
      .filter((f) => f.area === "hooks")
      .map((f) => f.message);
    expect(hooks[0]).toMatch(
      /^9 events wired to .*\.claude\/hooks\/playbook\.cjs$/,
    );
    expect(hooks[1]).toMatch(
      /^the hook answers a Read in \d+ ms \(Node alone starts in \d+ ms\)$/,
    );
    expect(findings.find((f) => f.area === "claude")).toMatchObject({
      level: "ok",
      message: `Claude Code ${claudeCodeVersion()}`,
    });
  });

  it("proves the protected files in the sandbox: names the rules only the hook holds, entries not written yet, and files the shell could still write", () => {
    const p = installed();
    appendFileSync(
      p.path(".claude/protected-files.txt"),
      "\n[HARD_BLOCK]\n*.key\nsecret.txt\n",
    );
    for (const file of ["a.key", "secret.txt", "sub/secret.txt"])
      p.write(file, "s3cret\n");
    execFileSync("git", ["add", "-A"], { cwd: p.dir });
    execFileSync(
      "git",
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "files"],
      { cwd: p.dir },
    );
    const protectedFindings = () =>
      doctor(p).findings.filter((f) => f.area === "protected");
    expect(protectedFindings()).toContainEqual(
      expect.objectContaining({
        level: "error",
        message: expect.stringContaining(
          "the sandbox does not hold `secret.txt` yet",
        ) as string,
      }),
    );
    expect(runCli(["init", "--yes", "--cwd", p.dir]).status).toBe(0);
    const after = protectedFindings();
    expect(after.map((f) => [f.level, f.message])).toEqual([
      [
        "warn",
        expect.stringContaining(
          "`*.key` is held by the hook alone: the sandbox takes only plain paths and `folder/**`",
        ),
      ],
      [
        "error",
        expect.stringContaining("the agent's shell could still write `a.key`"),
      ],
      [
        "error",
        expect.stringContaining(
          "the agent's shell could still write `sub/secret.txt`",
        ),
      ],
    ]);
    expect(after[2]?.fix).toBe(
      "Add `HARD_BLOCK /sub/secret.txt` to .claude/protected-files.txt (a plain path the sandbox holds).",
    );
  });

  it("fails when PATH has a folder the agent can write, where Claude Code would find `node` for the hook", () => {
    const p = installed();
    const { findings, status } = doctor(
      p,
      `${p.path("node_modules/.bin")}:${WITH_CLAUDE}`,
    );
    const path = findings.find((f) => f.area === "path");
    expect(path?.level).toBe("error");
    expect(path?.message).toContain(
      `PATH has folders the agent can write (${p.path("node_modules/.bin")})`,
    );
    expect(path?.fix).toContain("Take them out of PATH");
    // npx puts the project's node_modules/.bin first on PATH itself: that is not the shell's PATH.
    const viaNpx = runCli(["doctor", "--json", "--cwd", p.dir], {
      env: {
        GITHUB_TOKEN: undefined,
        GH_TOKEN: undefined,
        npm_command: "exec",
        PATH: `${p.path("node_modules/.bin")}:${WITH_CLAUDE}`,
      },
    });
    const findings2 = (JSON.parse(viaNpx.stdout) as { findings: Finding[] })
      .findings;
    expect(findings2.find((f) => f.area === "path")?.level).toBe("ok");
    expect(status).toBe(1);
  });

  it("calls a playbook that `new` just started a plan to write, not a broken install", () => {
    const p = installed();
    execFileSync("git", ["add", "-A"], { cwd: p.dir });
    execFileSync(
      "git",
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "setup"],
      { cwd: p.dir },
    );
    expect(runCli(["new", "login-form", "--cwd", p.dir]).status).toBe(0);
    const { findings, status } = doctor(p);
    expect(status).toBe(0);
    expect(findings.find((f) => f.area === "state")).toMatchObject({
      level: "warn",
      message: expect.stringContaining(
        "plan/playbook-login-form.md not written yet",
      ) as string,
      fix: expect.stringContaining("until `playbook lint` is clean") as string,
    });
    const status_ = runCli(["status", "--cwd", p.dir], {
      env: { NO_COLOR: "1" },
    });
    expect(status_.stdout).toContain("next      write the plan: fill it in");
  });

  it("fails below the Claude Code that runs the hooks init writes (onFailure came in 2.1.295), and says when there is none", () => {
    const p = installed();
    // An older release answers `claude --version` the way the real one does.
    const old = createTempProject({
      "bin/claude": '#!/bin/sh\necho "2.1.294 (Claude Code)"\n',
    });
    chmodSync(old.path("bin/claude"), 0o755);
    const tooOld = doctor(p, `${old.path("bin")}:${process.env["PATH"] ?? ""}`);
    expect(tooOld.findings.find((f) => f.area === "claude")).toEqual({
      level: "error",
      area: "claude",
      message: "Claude Code 2.1.294 does not run the hooks init writes",
      fix: `Update Claude Code to ${MINIMUM_CLAUDE_CODE} or later (\`claude update\`).`,
    });
    expect(tooOld.status).toBe(1);
    const none = createTempProject({ "bin/.keep": "" });
    const missing = doctor(
      p,
      `${none.path("bin")}:${dirname(process.execPath)}:/usr/bin:/bin`,
    );
    expect(missing.findings.find((f) => f.area === "claude")).toMatchObject({
      level: "warn",
      message: "Claude Code was not found: `claude --version` did not answer",
    });
  });

  it("reports a missing hook, a moved bundle, a set lock and a broken state.md, each with its fix", () => {
    const p = installed();
    const settings = JSON.parse(p.read(".claude/settings.json")) as {
      hooks: Record<string, unknown[]>;
    };
    delete settings.hooks["Stop"];
    p.write(".claude/settings.json", JSON.stringify(settings, null, 2));
    p.write(
      ".claude/playbook/post-loop.json",
      JSON.stringify({
        status: "success",
        playbook: "plan/archive/playbook-x.md",
        pr: null,
        at: "2026-11-23T10:00:00Z",
        session: "s1",
      }),
    );
    p.write(
      "state.md",
      `${p.read("state.md")}\n## config\n\n\`\`\`yaml\nsecurity: nonsense\n\`\`\`\n`,
    );
    const { findings, status } = doctor(p);
    expect(status).toBe(1);
    expect(findings).toContainEqual({
      level: "error",
      area: "hooks",
      message: "not wired: Stop",
      fix: "Run `playbook init` (it adds each hook once).",
    });
    expect(findings.find((f) => f.area === "locks")).toMatchObject({
      level: "warn",
      fix: "Run `playbook post-loop` to pick the next task.",
    });
    expect(findings.find((f) => f.area === "state")).toMatchObject({
      level: "error",
      fix: "Run `playbook lint` and fix what it lists.",
    });
    p.write(
      ".claude/settings.json",
      p
        .read(".claude/settings.json")
        .replaceAll(
          /"[^"]*\.claude\/hooks\/playbook\.cjs"/g,
          '"/nowhere/.claude/hooks/playbook.cjs"',
        ),
    );
    expect(doctor(p).findings).toContainEqual(
      expect.objectContaining({
        level: "error",
        message:
          "the hook bundle /nowhere/.claude/hooks/playbook.cjs does not exist",
      }),
    );
  });

  it("fails when the PreToolUse hook would let a call through on a crash or a timeout (no onFailure block)", () => {
    const p = installed();
    expect(
      doctor(p).findings.some((f) => f.message.includes("onFailure")),
    ).toBe(false);
    const settings = JSON.parse(p.read(".claude/settings.json")) as {
      hooks: Record<string, { hooks: Record<string, unknown>[] }[]>;
    };
    for (const group of settings.hooks["PreToolUse"] ?? [])
      for (const handler of group.hooks) delete handler["onFailure"];
    p.write(".claude/settings.json", JSON.stringify(settings, null, 2));
    const { findings, status } = doctor(p);
    expect(status).toBe(1);
    expect(findings).toContainEqual({
      level: "error",
      area: "hooks",
      message:
        'PreToolUse runs without `"onFailure": "block"`: a hook that crashes or times out lets the tool call through unchecked',
      fix: "Run `playbook init` to upgrade the settings (your own entries are kept).",
    });
  });

  it("fails on .claude/playbook.json with a misspelt key or a pattern that is no regular expression, naming the fix", () => {
    const p = installed();
    p.write(
      ".claude/playbook.json",
      '{\n  "archiv": {},\n  "intent": { "work": ["(unclosed"] }\n}\n',
    );
    const { findings, status } = doctor(p);
    expect(status).toBe(1);
    expect(findings.find((f) => f.area === "config")).toEqual({
      level: "error",
      area: "config",
      message:
        "2 problems in .claude/playbook.json, first: Unexpected key `archiv`, expected one of lint, context, intent, loop, session, logging, archive, verify, security. Did you mean `archive`? An unknown key is ignored: fix its spelling.",
      fix: "Run `playbook lint` and fix what it lists for .claude/playbook.json.",
    });
    // The documents themselves are still clean.
    expect(findings.find((f) => f.area === "state")?.level).toBe("ok");
  });

  it("says when the archive would merge locally because the GitHub remote has no token", () => {
    const p = installed();
    execFileSync(
      "git",
      ["remote", "add", "origin", "https://github.com/acme/web.git"],
      { cwd: p.dir },
    );
    const archive = doctor(p).findings.find((f) => f.area === "archive");
    expect(archive?.level).toBe("warn");
    expect(archive?.fix).toContain("GITHUB_TOKEN");
  });
});
