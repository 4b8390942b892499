import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { childEnv, CLI_BUNDLE, runCli } from "../helpers/run-cli.ts";
import { runInTerminal } from "../helpers/terminal.ts";

const HOOK_BUNDLE = join(import.meta.dirname, "..", "..", "dist", "hook.cjs");
import {
  createTempProject,
  createTempRepository,
  type TempProject,
} from "../helpers/temp-project.ts";

const HOOK = "${CLAUDE_PROJECT_DIR}/.claude/hooks/playbook.cjs";

/** A git repository with a package.json and playbook-kit installed in node_modules (as `npm i -D` leaves it). */
function project(files: Record<string, string> = {}): TempProject {
  return createTempRepository({
    "package.json": JSON.stringify({
      name: "acme-web",
      scripts: { test: "vitest run", lint: "eslint ." },
    }),
    "node_modules/playbook-kit/dist/hook.cjs": "// the installed bundle\n",
    "node_modules/playbook-kit/dist/hook-main.cjs": "// tool calls\n",
    "node_modules/playbook-kit/dist/hook-session.cjs": "// session events\n",
    ...files,
  });
}

/** The user commits playbook's setup on main, as init's next step says. */
function commitSetup(p: TempProject): void {
  execFileSync("git", ["add", "-A"], { cwd: p.dir });
  execFileSync("git", ["commit", "-q", "-m", "Set up playbook"], {
    cwd: p.dir,
  });
}

const cli = (p: TempProject, ...args: string[]) =>
  runCli([...args, "--cwd", p.dir], { env: { LANG: "C", LC_ALL: undefined } });

/** Every file of the project except git's own and node_modules, with its content. */
function tree(p: TempProject): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(p.dir, path);
      if (rel === ".git" || rel === "node_modules") continue;
      if (entry.isDirectory()) walk(path);
      else out[rel] = readFileSync(path, "utf8");
    }
  };
  walk(p.dir);
  return out;
}

const ourHandlers = (settings: string) =>
  Object.entries(
    (
      JSON.parse(settings.replace(/^\s*\/\/.*$/gm, "")) as {
        hooks: Record<
          string,
          { hooks: { command: string; args?: string[] }[] }[]
        >;
      }
    ).hooks,
  ).flatMap(([event, groups]) =>
    groups
      .flatMap((g) => g.hooks)
      .filter((h) => (h.args ?? []).some((a) => a === HOOK))
      .map(() => event),
  );

const USER_SETTINGS = `{
  // team settings
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./audit.sh" }] }
    ]
  },
  "statusLine": { "type": "command", "command": "~/.claude/line.sh" }
}
`;

describe("playbook init", () => {
  it("installs agents, skills, commands, rules, state.md and the hooks, and the result lints clean", () => {
    const p = project();
    const result = cli(p, "init", "--yes");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("done: ");
    const files = tree(p);
    for (const path of [
      ".claude/agents/pm.md",
      ".claude/agents/reviewer.md",
      ".claude/agents/critic.md",
      ".claude/skills/playbook-init/SKILL.md",
      ".claude/commands/playbook-review.md",
      ".claude/frameworks/playbook-review-criteria.md",
      ".claude/rules/testing.md",
      ".claude/protected-files.txt",
      ".claude/playbook-manifest.json",
      "plan/template/playbook-format.md",
      "state.md",
      "CLAUDE.md",
      ".gitignore",
    ])
      expect(files[path], path).toBeDefined();
    expect(files[".claude/agents/codex-delegate.md"]).toBeUndefined();
    expect(ourHandlers(files[".claude/settings.json"] ?? "").sort()).toEqual([
      "PostToolUse",
      "PostToolUseFailure",
      "PreCompact",
      "PreToolUse",
      "SessionEnd",
      "SessionStart",
      "Stop",
      "SubagentStop",
      "UserPromptSubmit",
    ]);
    expect(files[".claude/settings.json"]).toContain(HOOK);
    expect(files[".claude/settings.json"]).not.toContain("npx");
    expect(files[".claude/rules/testing.md"]).toContain("npm test");
    const manifest = JSON.parse(
      files[".claude/playbook-manifest.json"] ?? "",
    ) as {
      files: Record<string, string>;
    };
    expect(Object.keys(manifest.files)).toContain(".claude/agents/pm.md");
    const lint = cli(p, "lint");
    expect(lint.stdout).toContain("0 errors, 0 warnings");
    expect(lint.status).toBe(0);
  });

  it.each([
    ["en", "A"],
    ["en", "B"],
    ["en", "C"],
    ["ja", "A"],
    ["ja", "B"],
    ["ja", "C"],
  ])(
    "--lang %s --toolstack %s writes what the snapshot shows",
    async (lang, toolstack) => {
      const p = project();
      expect(
        cli(p, "init", "--yes", "--lang", lang, "--toolstack", toolstack)
          .status,
      ).toBe(0);
      const files = tree(p);
      const lines: string[] = [];
      for (const path of Object.keys(files).sort()) {
        const text = files[path] ?? "";
        if (path === ".claude/playbook-manifest.json") {
          lines.push(`== ${path} (times left out)`);
          continue;
        }
        if (/\.claude\/(agents|skills|commands)\//.test(path))
          lines.push(`== ${path}`, JSON.stringify(matter(text).data, null, 2));
        else if (
          /^(\.claude\/settings\.json|\.gitignore|CLAUDE\.md|state\.md|\.claude\/playbook\.json)$/.test(
            path,
          )
        )
          lines.push(
            `== ${path}`,
            text.replace(/^(created|last_start): .*$/gm, "$1: <time>"),
          );
        else lines.push(`== ${path} (${text.split("\n").length} lines)`);
      }
      await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot(
        `__snapshots__/init-${lang}-${toolstack}.txt`,
      );
    },
  );

  it("keeps an agent the user edited through the upgrade, and --force writes ours beside it", () => {
    const p = project();
    cli(p, "init", "--yes");
    p.write(
      ".claude/agents/pm.md",
      `${p.read(".claude/agents/pm.md")}\nOur team rule: name branches after tickets.\n`,
    );
    const mine = p.read(".claude/agents/pm.md");
    const upgrade = cli(p, "init", "--yes");
    expect(upgrade.status).toBe(0);
    expect(upgrade.stdout).toMatch(
      /keep-modified\s+\.claude\/agents\/pm\.md\s+you changed it: kept/,
    );
    expect(p.read(".claude/agents/pm.md")).toBe(mine);
    const forced = cli(p, "init", "--yes", "--force");
    expect(forced.stdout).toContain("ours written as pm.md.new");
    expect(p.read(".claude/agents/pm.md")).toBe(mine);
    expect(p.read(".claude/agents/pm.md.new")).not.toContain("Our team rule");
  });

  it("never duplicates its hooks over three inits, and keeps the user's settings, comments and status line", () => {
    const p = project({ ".claude/settings.json": USER_SETTINGS });
    for (let i = 0; i < 3; i++) expect(cli(p, "init", "--yes").status).toBe(0);
    const settings = p.read(".claude/settings.json");
    const events = ourHandlers(settings);
    expect(events).toHaveLength(9);
    expect(new Set(events).size).toBe(9);
    expect(settings).toContain("// team settings");
    expect(settings).toContain('"command": "./audit.sh"');
    expect(settings).toContain("~/.claude/line.sh");
    expect(cli(p, "init", "--yes").stdout).toContain(
      "Everything is up to date.",
    );
  });

  it("keeps Claude Code's sandbox mount points out of `git add -A` through a block of .git/info/exclude that upgrade refreshes and uninstall takes out", () => {
    const p = project({ ".mcp.json": '{ "mcpServers": {} }\n' });
    const exclude = () => p.read(".git/info/exclude");
    const before = exclude();
    expect(cli(p, "init", "--yes").status).toBe(0);
    const block = exclude().slice(before.length);
    expect(block).toContain("/.bash_profile\n");
    expect(block).toContain("/.vscode\n!/.vscode/\n");
    // A real file of one of the names is the user's: git keeps seeing it.
    expect(block).not.toContain("/.mcp.json");
    // While a sandboxed command runs, a process outside sees its mount points as empty files.
    for (const name of [".bash_profile", ".zshrc", ".claude/launch.json"])
      p.write(name, "");
    execFileSync("git", ["add", "-A"], { cwd: p.dir });
    const staged = execFileSync("git", ["diff", "--cached", "--name-only"], {
      cwd: p.dir,
      encoding: "utf8",
    });
    expect(staged).toContain(".mcp.json");
    expect(staged).toContain(".claude/settings.json");
    expect(staged).not.toMatch(/\.bash_profile|\.zshrc|launch\.json/);
    // A real folder made later is no mount point: `git add -A` takes it.
    p.write(".vscode/settings.json", "{}\n");
    execFileSync("git", ["add", "-A"], { cwd: p.dir });
    expect(
      execFileSync("git", ["ls-files", ".vscode"], {
        cwd: p.dir,
        encoding: "utf8",
      }),
    ).toBe(".vscode/settings.json\n");
    expect(cli(p, "init", "--yes").status).toBe(0);
    expect(exclude()).not.toContain("/.vscode");
    expect(exclude()).toContain("/.bash_profile\n");
    expect(cli(p, "uninstall", "--yes").status).toBe(0);
    expect(exclude()).toBe(before);
  });

  it("uninstall leaves the repository as it was before init, except the user's own playbook", () => {
    const p = project({
      ".claude/settings.json": USER_SETTINGS,
      "CLAUDE.md": "# Acme\n\nOur conventions.\n",
      ".gitignore": "node_modules/\n",
    });
    const before = tree(p);
    expect(cli(p, "init", "--yes").status).toBe(0);
    p.write("plan/playbook-mine.md", "# my own notes for a playbook\n");
    const result = cli(p, "uninstall", "--yes");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(tree(p)).toEqual({
      ...before,
      "plan/playbook-mine.md": "# my own notes for a playbook\n",
    });
  });

  it("uninstall after hooks have run leaves no runtime file behind, and removes a state.md only playbook changed", () => {
    const p = project({ ".gitignore": "node_modules/\n" });
    execFileSync("git", ["add", "-A"], { cwd: p.dir });
    execFileSync(
      "git",
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"],
      { cwd: p.dir },
    );
    const before = tree(p);
    expect(cli(p, "init", "--yes").status).toBe(0);
    cli(p, "doctor");
    // A session runs the hooks: they write the parse cache, the timing log and the session's files.
    for (const [event, fields] of [
      ["SessionStart", { source: "startup" }],
      [
        "PreToolUse",
        { tool_name: "Read", tool_input: { file_path: p.path("state.md") } },
      ],
    ] as const)
      execFileSync(process.execPath, [HOOK_BUNDLE, event], {
        cwd: p.dir,
        input: JSON.stringify({
          session_id: "s1",
          cwd: p.dir,
          hook_event_name: event,
          ...fields,
        }),
        env: {
          ...process.env,
          CLAUDE_PROJECT_DIR: p.dir,
          PLAYBOOK_DISABLE: "",
        },
      });
    // A session stamp is playbook's bookkeeping in state.md, not the user's change.
    p.write(
      "state.md",
      p
        .read("state.md")
        .replace("last_start: null", "last_start: 2026-11-24T10:00:00Z"),
    );
    expect(readdirSync(p.path(".claude/playbook")).length).toBeGreaterThan(0);
    const result = cli(p, "uninstall", "--yes");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /remove\s+state\.md\s+only playbook's own entries changed since init/,
    );
    expect(tree(p)).toEqual(before);
    expect(
      execFileSync("git", ["status", "--porcelain"], {
        cwd: p.dir,
        encoding: "utf8",
      }),
    ).toBe("");
  });

  it("uninstall keeps a state.md the user wrote in, and an unfinished archive's journal", () => {
    const p = project();
    expect(cli(p, "init", "--yes").status).toBe(0);
    p.write("state.md", `${p.read("state.md")}\nOur notes: ship on Friday.\n`);
    p.write(".claude/playbook/archive-journal.json", '{"status":"partial"}\n');
    p.write(
      ".claude/playbook/records/plan__playbook-x.md/review.playbook.json",
      "{}\n",
    );
    const result = cli(p, "uninstall", "--yes");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /keep\s+state\.md\s+you changed it since init: kept/,
    );
    expect(p.read("state.md")).toContain("Our notes: ship on Friday.");
    expect(p.read(".claude/playbook/archive-journal.json")).toBe(
      '{"status":"partial"}\n',
    );
    expect(
      p.read(
        ".claude/playbook/records/plan__playbook-x.md/review.playbook.json",
      ),
    ).toBe("{}\n");
    expect(result.stdout).toContain("unfinished archive");
  });

  it("uninstall keeps what the user changed after init (their lines in CLAUDE.md, their playbook) and removes a state.md only playbook wrote to", () => {
    const p = project({ "CLAUDE.md": "# Acme\n" });
    cli(p, "init", "--yes");
    commitSetup(p);
    p.write("CLAUDE.md", `${p.read("CLAUDE.md")}\nAlways run the linter.\n`);
    execFileSync("git", ["commit", "-qam", "conventions"], { cwd: p.dir });
    expect(cli(p, "new", "login-form").status).toBe(0);
    const result = cli(p, "uninstall", "--yes");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /remove\s+state\.md\s+only playbook's own entries changed since init \(it named plan\/playbook-login-form\.md, which stays\)/,
    );
    expect(p.read("CLAUDE.md")).toBe("# Acme\n\nAlways run the linter.\n");
    expect(existsSync(p.path("state.md"))).toBe(false);
    expect(result.stdout).not.toContain("you changed is still there");
    expect(p.read("plan/playbook-login-form.md")).toContain(
      "project: login-form",
    );
    expect(tree(p)[".claude/agents/pm.md"]).toBeUndefined();
  });

  it("switching from toolstack B to A removes codex-delegate, unless the user changed it", () => {
    const p = project();
    cli(p, "init", "--yes", "--toolstack", "B");
    expect(p.read(".claude/agents/codex-delegate.md")).toContain(
      "name: codex-delegate",
    );
    const back = cli(p, "init", "--yes", "--toolstack", "A");
    expect(back.stdout).toMatch(
      /remove\s+\.claude\/agents\/codex-delegate\.md/,
    );
    expect(tree(p)[".claude/agents/codex-delegate.md"]).toBeUndefined();
    cli(p, "init", "--yes", "--toolstack", "B");
    p.write(
      ".claude/agents/codex-delegate.md",
      "---\nname: codex-delegate\ndescription: ours now\n---\n",
    );
    const again = cli(p, "init", "--yes", "--toolstack", "A");
    expect(again.stdout).toMatch(
      /keep-stale\s+\.claude\/agents\/codex-delegate\.md/,
    );
    expect(p.read(".claude/agents/codex-delegate.md")).toContain("ours now");
  });

  it("--plugin writes only the project's files: the plugin brings hooks, agents, skills and commands", () => {
    const p = project();
    expect(cli(p, "init", "--yes").status).toBe(0);
    const result = cli(p, "init", "--yes", "--plugin");
    expect(result.status).toBe(0);
    const files = tree(p);
    expect(
      Object.keys(files).filter((f) =>
        /^\.claude\/(agents|skills|commands)\//.test(f),
      ),
    ).toEqual([]);
    // The plugin brings the hooks; the sandbox that keeps the records out of the agent's reach stays in settings.json.
    const settings = JSON.parse(files[".claude/settings.json"] ?? "{}") as {
      hooks?: unknown;
      statusLine?: unknown;
      sandbox?: { enabled?: boolean };
    };
    expect(settings.hooks).toBeUndefined();
    expect(settings.statusLine).toBeUndefined();
    expect(settings.sandbox?.enabled).toBe(true);
    expect(files[HOOK.replace("${CLAUDE_PROJECT_DIR}/", "")]).toBeUndefined();
    for (const path of [
      "state.md",
      ".claude/frameworks/playbook-review-criteria.md",
      ".claude/rules/coding.md",
      "CLAUDE.md",
    ])
      expect(files[path], path).toBeDefined();
  });

  it("--plugin keeps a settings.json that holds the user's own settings, without our hooks", () => {
    const p = project({
      ".claude/settings.json": '{\n  "model": "opus"\n}\n',
    });
    const first = cli(p, "init", "--yes");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      /merge\s+\.claude\/settings\.json\s+playbook's hooks and sandbox added once; yours kept/,
    );
    expect(cli(p, "init", "--yes", "--plugin").status).toBe(0);
    const settings = JSON.parse(p.read(".claude/settings.json")) as Record<
      string,
      unknown
    >;
    expect(settings["model"]).toBe("opus");
    expect(settings["hooks"]).toBeUndefined();
    expect(settings["sandbox"]).toMatchObject({
      enabled: true,
      allowUnsandboxedCommands: false,
    });
  });

  it("refuses a settings.json it cannot read, with the line, and writes nothing", () => {
    const p = project({
      ".claude/settings.json": '{\n  "hooks": {\n    "Stop": {}\n  }\n}\n',
    });
    const before = tree(p);
    const result = cli(p, "init", "--yes");
    expect(result.status).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe(
      '.claude/settings.json:3:5  error  playbook cannot merge its settings into .claude/settings.json: "hooks.Stop" is not a list.',
    );
    expect(result.stderr).toContain("Nothing was changed.");
    expect(tree(p)).toEqual(before);
  });

  it("asks in a real terminal with choices: a typed `x` or `fr` never becomes an answer", async () => {
    const p = project();
    const run = await runInTerminal(
      `'${process.execPath}' '${CLI_BUNDLE}' init --cwd '${p.dir}'`,
      // toolstack: types x, then Enter; language: types fr, then Enter; the two commands as detected; apply.
      ["x\r", "fr\r", "\r", "\r", "\r"],
      childEnv({ LANG: "C", LC_ALL: undefined, NO_COLOR: "1" }),
    );
    expect(run.screen).not.toContain("internal error");
    expect(run.screen).toContain("toolstack A, en");
    expect(run.status).toBe(0);
    expect(p.read(".claude/playbook-manifest.json")).toContain(
      '"toolstack": "A"',
    );
    expect(existsSync(p.path(".claude/agents/codex-delegate.md"))).toBe(false);
  });

  it("refuses outside a git repository, writing nothing", () => {
    const p = createTempProject({ "package.json": '{"name":"acme"}\n' });
    const result = cli(p, "init", "--yes");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("is not a git repository");
    expect(result.stderr).toContain("git init");
    expect(readdirSync(p.dir)).toEqual(["package.json"]);
  });

  it("says so when the hooks would point at this machine's copy of playbook rather than the project's", () => {
    const p = project();
    rmSync(p.path("node_modules"), { recursive: true });
    const result = cli(p, "init", "--yes");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "a source checkout of playbook on this machine",
    );
    expect(result.stdout).toContain("npx playbook-kit@");
    expect(result.stdout).toContain("init` instead");
  });

  it("--dry-run prints the plan and writes nothing", () => {
    const p = project();
    const before = tree(p);
    const result = cli(p, "init", "--yes", "--dry-run");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/create\s+\.claude\/agents\/pm\.md/);
    // A settings.json init creates holds nothing of the user's to keep.
    expect(result.stdout).toMatch(
      /create\s+\.claude\/settings\.json\s+playbook's hooks and the sandbox/,
    );
    expect(result.stdout).toContain("dry run: nothing was written");
    expect(tree(p)).toEqual(before);
  });

  it("uninstall asks first, and without a terminal needs --yes", () => {
    const p = project();
    cli(p, "init", "--yes");
    const result = cli(p, "uninstall");
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("pass --yes");
    expect(p.read(".claude/agents/pm.md")).toContain("name: pm");
  });
});

describe("playbook new", () => {
  it("refuses while playbook's setup (or any other change) is not committed, naming the next step and changing nothing", () => {
    const p = project();
    expect(cli(p, "init", "--yes").stdout).toContain(
      'Next: commit the setup on main (`git add -A && git commit -m "Set up playbook"`)',
    );
    const before = tree(p);
    const result = cli(p, "new", "login-form");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("uncommitted changes");
    expect(result.stderr).toContain("would move to feat/login-form");
    expect(tree(p)).toEqual(before);
    expect(
      execFileSync("git", ["branch", "--show-current"], {
        cwd: p.dir,
        encoding: "utf8",
      }).trim(),
    ).toBe("main");
    // state.md and playbook's runtime files are its own bookkeeping: they do not count.
    commitSetup(p);
    p.write(
      "state.md",
      p
        .read("state.md")
        .replace("last_start: null", "last_start: 2026-11-24T10:00:00Z"),
    );
    p.write(".claude/playbook/logs/hook-timing.log", "x\n");
    expect(cli(p, "new", "login-form").status).toBe(0);
  });

  it("refuses in a repository without commits: the branch would have nothing to start from", () => {
    const p = createTempProject({ "package.json": '{"name":"acme"}\n' });
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: p.dir });
    expect(cli(p, "init", "--yes").status).toBe(0);
    const result = cli(p, "new", "login-form");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("has no commits yet");
    expect(result.stderr).toContain("git commit");
    expect(existsSync(p.path("plan/playbook-login-form.md"))).toBe(false);
  });

  it("creates the playbook from the skeleton, its branch, and points state.md at both", () => {
    const p = project();
    cli(p, "init", "--yes");
    commitSetup(p);
    const result = cli(p, "new", "login-form");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "created plan/playbook-login-form.md on branch feat/login-form",
    );
    expect(
      execFileSync("git", ["branch", "--show-current"], {
        cwd: p.dir,
        encoding: "utf8",
      }).trim(),
    ).toBe("feat/login-form");
    const state = p.read("state.md");
    expect(state).toContain("active: plan/playbook-login-form.md");
    expect(state).toContain("branch: feat/login-form");
    // The skeleton is a checklist: lint names each blank the pm fills.
    const lint = cli(p, "lint");
    expect(lint.stdout).toContain("[goal-summary-missing]");
    expect(lint.stdout).not.toContain("[branch-mismatch]");
  });

  it("refuses a second task while one is active, a bad name, and a taken branch, changing nothing", () => {
    const p = project();
    cli(p, "init", "--yes");
    commitSetup(p);
    expect(cli(p, "new", "Login Form").stderr).toContain(
      'Unexpected playbook name "Login Form"',
    );
    execFileSync("git", ["branch", "feat/taken"], { cwd: p.dir });
    expect(cli(p, "new", "taken").stderr).toContain(
      "The branch feat/taken already exists.",
    );
    cli(p, "new", "first");
    const second = cli(p, "new", "second");
    expect(second.status).not.toBe(0);
    expect(second.stderr).toContain(
      "plan/playbook-first.md is the active playbook",
    );
    expect(tree(p)["plan/playbook-second.md"]).toBeUndefined();
  });
});
