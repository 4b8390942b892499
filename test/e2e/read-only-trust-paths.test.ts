import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import {
  INSTALL_SANDBOX_TOOLS,
  requireTool,
} from "../helpers/required-tools.ts";
import { CLI_BUNDLE, childEnv } from "../helpers/run-cli.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";

// bubblewrap, which mounts the paths read-only here as Claude Code's sandbox does, exists only on Linux; macOS's
// sandbox-exec takes a profile these tests do not write.
const onLinux = describe.runIf(process.platform === "linux");

/** Runs the CLI with `readOnly` (project paths) mounted read-only, as Claude Code's sandbox mounts the trust paths. */
function cliWithReadOnly(p: TempProject, readOnly: string[], args: string[]) {
  const mounts = readOnly.flatMap((path) => [
    "--ro-bind",
    p.path(path),
    p.path(path),
  ]);
  return spawnSync(
    "bwrap",
    [
      "--dev-bind",
      "/",
      "/",
      ...mounts,
      process.execPath,
      CLI_BUNDLE,
      ...args,
      "--cwd",
      p.dir,
    ],
    {
      encoding: "utf8",
      env: childEnv({ CLAUDECODE: undefined, LANG: "C" }),
      timeout: 60_000,
    },
  );
}

function project(): TempProject {
  const validation = '"automated - touch ran.txt"';
  const p = createTempProject({
    "state.md": SAMPLE_STATE,
    [PLAYBOOK]: SAMPLE_PLAYBOOK.replace(
      /(- technical: ).*$/m,
      `$1${validation}`,
    ),
  });
  mkdirSync(p.path(".claude/playbook/records"), { recursive: true });
  return p;
}

onLinux("where a trust path is read-only", () => {
  beforeEach(() => requireTool("which", ["bwrap"], INSTALL_SANDBOX_TOOLS));

  it("verify says who writes the records and how to run it, before it runs anything", () => {
    const p = project();
    const result = cliWithReadOnly(p, [".claude/playbook"], ["verify", "p1.1"]);
    expect(result.status).toBe(1);
    expect(result.stderr.split("\n").slice(0, 2)).toEqual([
      "error `.claude/playbook/records` is written only by playbook's hook or a person's terminal, and it is read-only here (inside Claude Code's sandbox, or on a read-only disk).",
      "Run `playbook verify p1.1` through Claude Code's Bash tool, which the hook runs for you, or in your own terminal.",
    ]);
    expect(result.stderr).not.toContain("internal error");
    expect(existsSync(p.path("ran.txt"))).toBe(false);
  });

  it("post-loop names the runtime folder; status and lint still read", () => {
    const p = project();
    const lock = cliWithReadOnly(p, [".claude/playbook"], ["post-loop"]);
    expect(lock.status).toBe(1);
    expect(lock.stderr).toMatch(
      /^error `\.claude\/playbook` is written only by playbook's hook or a person's terminal, and it is read-only here .*\nRun `playbook post-loop`/,
    );
    for (const command of ["status", "lint"]) {
      const read = cliWithReadOnly(p, [".claude/playbook"], [command]);
      expect(read.stderr, command).toBe("");
      expect(read.status, command).toBe(0);
    }
  });

  it("any other refused write to one is an error with its next step, not a bug", () => {
    const p = project();
    p.write(".claude/settings.json", "{}\n");
    execFileSync("git", ["init", "-q"], { cwd: p.dir });
    const result = cliWithReadOnly(
      p,
      [".claude/settings.json"],
      ["init", "--yes"],
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "error `.claude/settings.json` is changed only by a person in their own terminal, and it is read-only here (inside Claude Code's sandbox, or on a read-only disk).\nAsk the user to run `npx --no playbook init` (or `npm install`) in their own terminal.",
    );
    expect(result.stderr).not.toContain("internal error");
    expect(p.read(".claude/settings.json")).toBe("{}\n");
  });
});
