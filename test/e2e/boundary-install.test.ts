import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const REPOSITORY = join(import.meta.dirname, "..", "..");
const LOADER = ".claude/hooks/playbook.cjs";

/** A committed git project with playbook-kit installed in node_modules (its real dist), then `init --yes`. */
function installed(files: Record<string, string> = {}): TempProject {
  const p = createTempProject({
    "package.json": '{"name":"acme"}\n',
    ...files,
  });
  const kit = p.path("node_modules/playbook-kit");
  cpSync(join(REPOSITORY, "dist"), join(kit, "dist"), { recursive: true });
  cpSync(join(REPOSITORY, "package.json"), join(kit, "package.json"));
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: p.dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Dev");
  git("config", "user.email", "dev@example.com");
  writeFileSync(p.path(".gitignore"), "node_modules/\n");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  const init = runCli(["init", "--yes", "--cwd", p.dir]);
  expect(init.status, init.stderr).toBe(0);
  git("add", "-A");
  git("commit", "-q", "-m", "Set up playbook");
  git("switch", "-q", "-c", "feat/x");
  return p;
}

/** Claude Code runs the loader as settings.json says: `node <loader> <event>`, the payload on stdin. */
function hook(p: TempProject, event: string, payload: Record<string, unknown>) {
  const result = spawnSync(process.execPath, [p.path(LOADER), event], {
    cwd: p.dir,
    input: JSON.stringify({
      session_id: "s1",
      cwd: p.dir,
      hook_event_name: event,
      ...payload,
    }),
    encoding: "utf8",
    env: { ...process.env, CLAUDE_PROJECT_DIR: p.dir, PLAYBOOK_DISABLE: "" },
  });
  const reply = (result.stdout.trim() ? JSON.parse(result.stdout) : {}) as {
    hookSpecificOutput?: {
      permissionDecision?: string;
      permissionDecisionReason?: string;
      additionalContext?: string;
    };
  };
  return { status: result.status, reply, stdout: result.stdout };
}

const write = (p: TempProject) =>
  hook(p, "PreToolUse", {
    tool_name: "Write",
    tool_input: { file_path: p.path("src/x.ts"), content: "x" },
  });

describe("the loader init commits", () => {
  it("hands over to the installed bundle when it is the one init saw", () => {
    const p = installed();
    const read = hook(p, "PreToolUse", {
      tool_name: "Read",
      tool_input: { file_path: p.path("state.md") },
    });
    expect(read.status).toBe(0);
    // The real hook answered: a write without a playbook gets the playbook gate's reason, not the loader's.
    const reason = write(p).reply.hookSpecificOutput?.permissionDecisionReason;
    expect(reason).toContain(
      "Blocked `src/x.ts`: no playbook is active, and work starts with a plan.",
    );
  });

  it("refuses writes, not reads, when the bundle is missing (a clone without npm install), and says what to do", () => {
    const p = installed();
    rmSync(p.path("node_modules"), { recursive: true });
    const refused = write(p);
    expect(refused.status).toBe(0);
    expect(refused.reply.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(
      refused.reply.hookSpecificOutput?.permissionDecisionReason,
    ).toContain("`npm install`");
    const bash = hook(p, "PreToolUse", {
      tool_name: "Bash",
      tool_input: { command: "echo hi > src/x.ts" },
    });
    expect(bash.reply.hookSpecificOutput?.permissionDecision).toBe("deny");
    const read = hook(p, "PreToolUse", {
      tool_name: "Read",
      tool_input: { file_path: p.path("state.md") },
    });
    expect(read.stdout).toBe("");
    const start = hook(p, "SessionStart", { source: "startup" });
    expect(start.reply.hookSpecificOutput?.additionalContext).toContain(
      "not enforcing anything",
    );
  });

  it("in a git worktree added without npm install, refuses writes and says to install in that worktree", () => {
    const p = installed();
    const tree = `${p.dir}-worktree`;
    execFileSync("git", ["worktree", "add", "-q", "--detach", tree], {
      cwd: p.dir,
    });
    const linked: TempProject = {
      dir: tree,
      path: (rel) => join(tree, rel),
      read: (rel) => readFileSync(join(tree, rel), "utf8"),
      write: (rel, text) => writeFileSync(join(tree, rel), text),
    };
    try {
      const refused = write(linked);
      expect(refused.reply.hookSpecificOutput?.permissionDecision).toBe("deny");
      expect(
        refused.reply.hookSpecificOutput?.permissionDecisionReason,
      ).toContain(
        `ask the user to run \`npm install\` in ${tree} (a git worktree has its own node_modules: install in each one) in a terminal, then to start Claude Code again.`,
      );
      const start = hook(linked, "SessionStart", { source: "startup" });
      expect(start.reply.hookSpecificOutput?.additionalContext).toContain(
        `\`npm install\` in ${tree} (a git worktree has its own node_modules`,
      );
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it("refuses writes when a bundle was altered, and names the upgrade after a version change", () => {
    const p = installed();
    const bundle = p.path("node_modules/playbook-kit/dist/hook-main.cjs");
    appendFileSync(bundle, "\n// allow everything\n");
    const refused = write(p);
    expect(refused.reply.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(
      refused.reply.hookSpecificOutput?.permissionDecisionReason,
    ).toContain("not the one `playbook init` installed");
    const pkg = p.path("node_modules/playbook-kit/package.json");
    writeFileSync(
      pkg,
      readFileSync(pkg, "utf8").replace(
        /"version": "[^"]+"/,
        '"version": "9.9.9"',
      ),
    );
    expect(
      write(p).reply.hookSpecificOutput?.permissionDecisionReason,
    ).toContain("upgrade");
    const doctor = runCli(["doctor", "--json", "--cwd", p.dir]);
    const findings = (
      JSON.parse(doctor.stdout) as {
        findings: { level: string; area: string; message: string }[];
      }
    ).findings;
    expect(
      findings.find(
        (f) =>
          f.area === "boundary" &&
          f.message.includes("the loader refuses every write"),
      )?.level,
    ).toBe("error");
  });

  it("notes the bundles it verified, and still catches one changed afterwards with its size and mtime kept", () => {
    const p = installed();
    expect(
      write(p).reply.hookSpecificOutput?.permissionDecisionReason,
    ).not.toContain("not the one");
    // The second call trusts the note (inode, size, mtime, ctime) instead of hashing again.
    expect(existsSync(p.path(".claude/playbook/cache/loader-check.json"))).toBe(
      true,
    );
    const bundle = p.path("node_modules/playbook-kit/dist/hook-main.cjs");
    const before = statSync(bundle);
    const text = readFileSync(bundle, "utf8");
    // Same length, one character different, written in place; then the old mtime is put back.
    const at = text.indexOf("deny");
    writeFileSync(bundle, `${text.slice(0, at)}DENY${text.slice(at + 4)}`);
    utimesSync(bundle, before.atime, before.mtime);
    expect(statSync(bundle).size).toBe(before.size);
    const refused = write(p);
    expect(refused.reply.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(
      refused.reply.hookSpecificOutput?.permissionDecisionReason,
    ).toContain("not the one `playbook init` installed");
  });

  it("the kill switch still turns everything off", () => {
    const p = installed();
    rmSync(p.path("node_modules"), { recursive: true });
    const result = spawnSync(process.execPath, [p.path(LOADER), "PreToolUse"], {
      input: JSON.stringify({ tool_name: "Write", tool_input: {} }),
      encoding: "utf8",
      env: { ...process.env, PLAYBOOK_DISABLE: "1" },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("");
  });
});

describe("init and the trust boundary", () => {
  it("moves `security` from an older state.md to .claude/playbook.json, where the agent cannot change it", () => {
    const p = installed();
    const state = readFileSync(p.path("state.md"), "utf8").replace(
      "toolstack: A",
      "security: developer\ntoolstack: A",
    );
    writeFileSync(p.path("state.md"), state);
    const upgrade = runCli(["init", "--yes", "--cwd", p.dir]);
    expect(upgrade.status, upgrade.stderr).toBe(0);
    expect(upgrade.stdout).toContain("security developer moved");
    expect(
      (
        JSON.parse(readFileSync(p.path(".claude/playbook.json"), "utf8")) as {
          security?: string;
        }
      ).security,
    ).toBe("developer");
    expect(readFileSync(p.path("state.md"), "utf8")).not.toContain("security:");
    // A weaker mode starts without the sandbox, and says so at every session start.
    const settings = JSON.parse(
      readFileSync(p.path(".claude/settings.json"), "utf8"),
    ) as { sandbox: Record<string, unknown> };
    expect(settings.sandbox["failIfUnavailable"]).toBeUndefined();
    const start = hook(p, "SessionStart", { source: "startup" });
    expect(start.stdout).toContain("security is developer");
  });

  it("--ci github writes a workflow that re-runs the validations of each pull request, kept by later upgrades", () => {
    const p = installed();
    expect(
      runCli(["init", "--yes", "--ci", "github", "--cwd", p.dir]).status,
    ).toBe(0);
    const workflow = ".github/workflows/playbook.yml";
    expect(readFileSync(p.path(workflow), "utf8")).toContain(
      "npx --no playbook check --rerun --pr ../pr --base",
    );
    expect(runCli(["init", "--yes", "--cwd", p.dir]).status).toBe(0);
    expect(existsSync(p.path(workflow))).toBe(true);
    const wrong = runCli(["init", "--yes", "--ci", "gitlab", "--cwd", p.dir]);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toContain("Unexpected --ci gitlab, expected github.");
  });
});
