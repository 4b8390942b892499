import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { childEnv } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";
import { runInTerminal } from "../helpers/terminal.ts";

const root = join(import.meta.dirname, "..", "..");
let tarball = "";

beforeAll(() => {
  const packDir = mkdtempSync(join(tmpdir(), "playbook-pack-"));
  execFileSync("npm", ["pack", "--silent", "--pack-destination", packDir], {
    cwd: root,
    stdio: "ignore",
  });
  tarball = join(
    packDir,
    readdirSync(packDir).find((f) => f.endsWith(".tgz")) ?? "",
  );
});

/** The commands of the README's "Install it into your project" block, comments removed, as a user would type them. */
function readmeInstallCommands(): string[] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("## Install it into your project"),
  );
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter((line) => line !== "");
}

/** A small npm project as a user has it: committed, with node_modules ignored. */
function scratchProject(): TempProject {
  const p = createTempProject({
    "package.json": `${JSON.stringify({ name: "acme", version: "1.0.0", scripts: { test: "node --test" } }, null, 2)}\n`,
    ".gitignore": "node_modules/\n",
    "index.js": "module.exports = 1;\n",
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: p.dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Dev");
  git("config", "user.email", "dev@example.com");
  git("add", "-A");
  git("commit", "-q", "-m", "first");
  return p;
}

describe("the README's install section, followed word for word", () => {
  it("installs the tarball, sets up, starts a task and uninstalls, leaving git status clean", async () => {
    const commands = readmeInstallCommands();
    expect(commands[0]).toBe("npm i -D playbook-kit");
    expect(commands.some((c) => c.startsWith("npx --no playbook init"))).toBe(
      true,
    );
    const p = scratchProject();
    const env = childEnv({
      LANG: "C",
      LC_ALL: undefined,
      NO_COLOR: "1",
      // Nothing from the network: the tarball stands in for the registry's copy.
      npm_config_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      GITHUB_TOKEN: undefined,
      GH_TOKEN: undefined,
      GH_CONFIG_DIR: p.path(".no-gh"),
    });
    const type = async (command: string, keys: readonly string[] = []) => {
      const run = await runInTerminal(`cd '${p.dir}' && ${command}`, keys, env);
      expect(run.screen, command).not.toContain("internal error");
      expect(run.status, `${command}\n${run.screen}`).toBe(0);
      return run.screen;
    };

    for (const command of commands) {
      const line = command.replace(
        /^npm i -D playbook-kit$/,
        `npm i -D '${tarball}'`,
      );
      // init asks four questions and whether to apply the plan: the defaults are taken.
      await type(
        line,
        command.includes(" init") ? ["\r", "\r", "\r", "\r", "\r"] : [],
      );
    }
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: p.dir, encoding: "utf8" });
    expect(git("status", "--porcelain")).toBe("");
    expect(git("log", "--format=%s", "-1").trim()).toBe("Set up playbook");
    expect(existsSync(p.path(".claude/settings.json"))).toBe(true);

    // The first task, as the README's next paragraph says: `playbook new <name>` from the clean default branch.
    await type("npx --no playbook new login-form");
    expect(git("branch", "--show-current").trim()).toBe("feat/login-form");
    expect(existsSync(p.path("plan/playbook-login-form.md"))).toBe(true);

    const doctor = await type("npx --no playbook doctor");
    expect(doctor).not.toMatch(/^\s*(✗|error)/m);

    await type("npx --no playbook uninstall", ["y\r"]);
    // Nothing init or the hooks wrote is left behind for `git add -A` to pick up.
    const after = git("status", "--porcelain", "--untracked-files=all");
    expect(after.split("\n").filter((l) => l.startsWith("??"))).toEqual([
      "?? plan/playbook-login-form.md",
    ]);
    expect(existsSync(p.path(".claude"))).toBe(false);
    expect(existsSync(p.path("state.md"))).toBe(false);
    expect(readFileSync(p.path(".gitignore"), "utf8")).toBe("node_modules/\n");
    git("add", "-A");
    git("commit", "-q", "-m", "Remove playbook");
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
    // What stays: the project's own files, the dev dependency npm added, and the user's playbook.
    expect(git("ls-files").trim().split("\n").sort()).toEqual([
      ".gitignore",
      "index.js",
      "package-lock.json",
      "package.json",
      "plan/playbook-login-form.md",
    ]);
  }, 600_000); // Six programs in a terminal, each allowed 90 s on a loaded machine, so that a hang shows its screen.
});
