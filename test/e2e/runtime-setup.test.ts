import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { packPlaybook } from "../../demo/install-playbook.ts";
import { PYTHON_SAMPLE_FILES } from "../../demo/sample-project.ts";
import { childEnv } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const RUNTIME_CLI = ".claude/playbook/runtime/dist/cli.mjs";

/** The package installed the way a user without a project install has it: a global install from the tarball. */
let globalBin = "";
beforeAll(() => {
  const prefix = realpathSync(mkdtempSync(join(tmpdir(), "playbook-global-")));
  execFileSync(
    "npm",
    [
      "i",
      "-g",
      "--prefix",
      prefix,
      "--offline",
      "--no-audit",
      "--no-fund",
      packPlaybook(),
    ],
    {
      stdio: "ignore",
      env: childEnv({ npm_config_cache: join(prefix, ".npm") }),
    },
  );
  globalBin = join(prefix, "bin", "playbook");
}, 180_000);

function pythonRepo(): TempProject & { git(...args: string[]): string } {
  const p = createTempProject(PYTHON_SAMPLE_FILES);
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: p.dir,
      encoding: "utf8",
      env: childEnv({
        GIT_AUTHOR_NAME: "Sam",
        GIT_AUTHOR_EMAIL: "sam@example.com",
        GIT_COMMITTER_NAME: "Sam",
        GIT_COMMITTER_EMAIL: "sam@example.com",
      }),
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "calc");
  return { ...p, git };
}

function run(cwd: string, command: string, ...args: string[]) {
  return spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: childEnv({
      NO_COLOR: "1",
      GITHUB_TOKEN: undefined,
      GH_TOKEN: undefined,
    }),
  });
}

describe("the runtime setup, in a repository without package.json", () => {
  it("commits no path of this machine, upgrades in place, and doctor names a runtime that differs from the setup", () => {
    const p = pythonRepo();
    const init = run(p.dir, globalBin, "init", "--yes");
    expect(init.stderr).toBe("");
    expect(init.status).toBe(0);
    expect(init.stdout).toContain(`\`node ${RUNTIME_CLI} doctor\``);
    p.git("add", "-A");
    p.git("commit", "-q", "-m", "Set up playbook");

    // Every file init wrote that git tracks names paths relative to the project; the global install is not named.
    const tracked = p
      .git("ls-files")
      .split("\n")
      .filter((f) => f !== "");
    const globalRoot = join(globalBin, "..", "..");
    for (const file of tracked) {
      const text = p.read(file);
      for (const machine of [p.dir, globalRoot, tmpdir()])
        expect(text.includes(machine), `${file} names ${machine}`).toBe(false);
    }
    expect(tracked).not.toContain("package.json");
    expect(
      tracked.filter((f) => f.startsWith(".claude/playbook/runtime/")),
    ).toEqual([]);
    expect(existsSync(p.path(RUNTIME_CLI))).toBe(true);

    const doctor = run(p.dir, "node", RUNTIME_CLI, "doctor");
    expect(doctor.stdout).toMatch(
      /ok\s+boundary\s+\.claude\/hooks\/playbook\.cjs checks 3 bundles/,
    );

    const upgrade = run(p.dir, "node", RUNTIME_CLI, "upgrade");
    expect(upgrade.status).toBe(0);
    expect(upgrade.stdout).toContain("Everything is up to date.");
    expect(p.git("status", "--porcelain")).toBe("");

    // Another playbook-kit in the copy than the one the setup was made with: the loader refuses, doctor says why.
    const copy = p.path(".claude/playbook/runtime");
    const manifest = JSON.parse(
      readFileSync(join(copy, "package.json"), "utf8"),
    ) as {
      version: string;
    };
    writeFileSync(
      join(copy, "package.json"),
      JSON.stringify({ ...manifest, version: "9.9.9" }),
    );
    appendFileSync(join(copy, "dist", "hook-main.cjs"), "\n");
    const differs = run(p.dir, "node", RUNTIME_CLI, "doctor");
    expect(differs.status).not.toBe(0);
    expect(differs.stdout).toContain(
      `the installed playbook-kit is 9.9.9, the committed setup was made with ${manifest.version}`,
    );
    expect(differs.stdout).toContain(
      `npx playbook-kit@${manifest.version} install`,
    );
    const hook = spawnSync(
      "node",
      [".claude/hooks/playbook.cjs", "PreToolUse"],
      {
        cwd: p.dir,
        encoding: "utf8",
        input: JSON.stringify({
          session_id: "s",
          transcript_path: "/nowhere",
          cwd: p.dir,
          hook_event_name: "PreToolUse",
          tool_name: "Write",
          tool_input: { file_path: p.path("calc/x.py"), content: "x" },
        }),
        env: childEnv({ CLAUDE_PROJECT_DIR: p.dir }),
      },
    );
    expect(hook.stdout).toContain('"permissionDecision":"deny"');
    expect(hook.stdout).toContain(
      `npx playbook-kit@${manifest.version} install`,
    );

    // `install` puts the setup's version back, byte for byte.
    const install = run(p.dir, globalBin, "install");
    expect(install.status).toBe(0);
    expect(run(p.dir, "node", RUNTIME_CLI, "doctor").stdout).toMatch(
      /ok\s+boundary\s+\.claude\/hooks\/playbook\.cjs checks 3 bundles/,
    );

    // uninstall takes the copy out with the rest of playbook's runtime files.
    const uninstall = run(p.dir, globalBin, "uninstall", "--yes");
    expect(uninstall.status).toBe(0);
    expect(existsSync(copy)).toBe(false);
  }, 240_000);

  it("install refuses a project set up with npm, or with another version, and writes nothing", () => {
    const p = pythonRepo();
    expect(run(p.dir, globalBin, "init", "--yes").status).toBe(0);
    const loader = p.read(".claude/hooks/playbook.cjs");
    p.write(
      ".claude/hooks/playbook.cjs",
      loader.replace(/^const VERSION = ".*";$/m, 'const VERSION = "0.0.1";'),
    );
    const other = run(p.dir, globalBin, "install");
    expect(other.status).not.toBe(0);
    expect(other.stderr).toContain(
      "The setup was made with playbook-kit 0.0.1",
    );
    expect(other.stderr).toContain("npx playbook-kit@0.0.1 install");

    const n = pythonRepo();
    n.write(
      ".claude/hooks/playbook.cjs",
      loader.replace(
        /^const DIST = .*;$/m,
        'const DIST = path.join(__dirname, "..", "..", "node_modules", "playbook-kit", "dist");',
      ),
    );
    const npm = run(n.dir, globalBin, "install");
    expect(npm.status).toBe(2);
    expect(npm.stderr).toContain("Run `npm install` here");
    expect(existsSync(n.path(".claude/playbook/runtime"))).toBe(false);
  });

  it("refuses to run on a Node.js older than 20.19, saying why", () => {
    const script = `Object.defineProperty(process, "versions", { value: { ...process.versions, node: "18.20.4" } });
process.argv = [process.argv[0], "playbook", "status"];
await import(${JSON.stringify(join(ROOT, "dist", "cli.mjs"))});`;
    const old = spawnSync("node", ["--input-type=module", "-e", script], {
      encoding: "utf8",
      env: childEnv({ NO_COLOR: "1" }),
    });
    expect(old.status).toBe(1);
    expect(old.stderr).toContain(
      "playbook needs Node.js 20.19 or later, and this is Node.js 18.20.4",
    );
  });
});
