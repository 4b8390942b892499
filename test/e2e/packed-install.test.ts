import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childEnv } from "../helpers/run-cli.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const root = join(import.meta.dirname, "..", "..");

describe("the published package", () => {
  it("installs into a project from its tarball: init finds its templates, doctor runs its hook", () => {
    const p = createTempProject({ "package.json": '{"name":"acme"}\n' });
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: p.dir });
    // What `npm i -D playbook-kit` unpacks: the tarball's files, with every dependency bundled into dist/.
    const packDir = p.path(".pack");
    mkdirSync(packDir);
    execFileSync("npm", ["pack", "--silent", "--pack-destination", packDir], {
      cwd: root,
      stdio: "ignore",
    });
    const tarball = readdirSync(packDir).find((f) => f.endsWith(".tgz")) ?? "";
    const installed = p.path("node_modules/playbook-kit");
    mkdirSync(installed, { recursive: true });
    execFileSync("tar", [
      "-xzf",
      join(packDir, tarball),
      "-C",
      installed,
      "--strip-components=1",
    ]);
    const cli = join(installed, "dist", "cli.mjs");
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [cli, ...args, "--cwd", p.dir], {
        encoding: "utf8",
        env: childEnv({
          GITHUB_TOKEN: undefined,
          GH_TOKEN: undefined,
          GH_CONFIG_DIR: p.path(".no-gh"),
        }),
      });
    const init = run("init", "--yes", "--lang", "ja");
    expect(init.stderr).toBe("");
    expect(init.status).toBe(0);
    // The hooks run the committed loader, which hands over to this install's bundle.
    expect(p.read(".claude/settings.json")).toContain(
      '"${CLAUDE_PROJECT_DIR}/.claude/hooks/playbook.cjs"',
    );
    expect(p.read(".claude/hooks/playbook.cjs")).toContain(
      '"node_modules", "playbook-kit", "dist"',
    );
    // Every command written for the agent resolves only to this package: `npx --no` never fetches a stranger's
    // `playbook` from the registry when node_modules is not installed yet.
    expect(p.read(".claude/agents/reviewer.md")).toContain(
      "npx --no playbook review approve",
    );
    const written = execFileSync(
      "git",
      ["ls-files", "--others", "--exclude-standard"],
      {
        cwd: p.dir,
        encoding: "utf8",
      },
    )
      .split("\n")
      .filter(
        (f) =>
          f !== "" && !f.startsWith("node_modules/") && !f.startsWith(".pack/"),
      );
    expect(written.length).toBeGreaterThan(20);
    for (const file of written)
      expect(p.read(file), file).not.toMatch(/npx playbook\b/);
    expect(init.stdout).toContain("`npx --no playbook doctor`");
    expect(p.read("plan/template/playbook-format.md")).toContain(
      "# Playbook format",
    );
    const doctor = JSON.parse(run("doctor", "--json").stdout) as {
      findings: { level: string; area: string; message: string }[];
    };
    expect(doctor.findings.filter((f) => f.area === "hooks")).toEqual([
      expect.objectContaining({
        level: "ok",
        message: expect.stringMatching(/^9 events wired to /) as string,
      }),
      expect.objectContaining({
        level: "ok",
        message: expect.stringMatching(/^the hook answers a Read in/) as string,
      }),
    ]);
    // The user commits the setup on main, as init's next step says; then the first task starts on its own branch.
    p.write(".gitignore", `${p.read(".gitignore")}node_modules/\n.pack/\n`);
    execFileSync("git", ["add", "-A"], { cwd: p.dir });
    execFileSync(
      "git",
      [
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-qm",
        "Set up playbook",
      ],
      {
        cwd: p.dir,
      },
    );
    expect(run("new", "login-form").status).toBe(0);

    // A teammate's fresh clone, before `npm install`, on a machine whose npm cache has never seen a package named
    // `playbook` (offline, so no test reaches the registry): npx refuses to fetch, and the CLAUDE.md block tells the
    // agent what that refusal says and means. npm words it by what its cache holds, so the block names both wordings.
    const clone = createTempProject({ "package.json": '{"name":"acme"}\n' });
    const npx = spawnSync("npx", ["--no", "playbook", "status"], {
      cwd: clone.dir,
      encoding: "utf8",
      env: childEnv({
        npm_config_offline: "true",
        npm_config_cache: clone.path(".empty-npm-cache"),
      }),
    });
    expect(npx.status).not.toBe(0);
    expect(npx.stderr).toContain("ENOTCACHED");
    for (const refusal of [
      "could not determine executable to run",
      "ENOTCACHED",
    ])
      expect(p.read("CLAUDE.md")).toContain(refusal);
    expect(p.read("CLAUDE.md")).toContain("npm install");
  });

  it("npm i -D and npm i -g of the tarball print no warning and pull in nothing but playbook-kit", () => {
    const p = createTempProject({
      "package.json": '{"name":"acme","version":"1.0.0"}\n',
      "npm/userconfig": "",
      "npm/globalconfig": "",
    });
    const packDir = p.path(".pack");
    mkdirSync(packDir);
    execFileSync("npm", ["pack", "--silent", "--pack-destination", packDir], {
      cwd: root,
      stdio: "ignore",
    });
    const tarball = join(
      packDir,
      readdirSync(packDir).find((f) => f.endsWith(".tgz")) ?? "",
    );
    // A user's shell: none of the npm_* variables `npm test` hands down, no npmrc of this machine (a warning from
    // its settings is not the package's), an empty cache; offline, so no test reaches the registry.
    const env = Object.fromEntries(
      Object.entries(childEnv()).filter(([name]) => !/^npm_/i.test(name)),
    );
    const npmInstall = (...args: string[]) =>
      spawnSync(
        "npm",
        ["install", ...args, tarball, "--offline", "--no-audit", "--no-fund"],
        {
          cwd: p.dir,
          encoding: "utf8",
          env: {
            ...env,
            npm_config_userconfig: p.path("npm/userconfig"),
            npm_config_globalconfig: p.path("npm/globalconfig"),
            npm_config_cache: p.path("npm/cache"),
          },
        },
      );
    const warnings = (stderr: string) =>
      stderr.split("\n").filter((line) => /^npm (?:warn|error)\b/.test(line));

    const local = npmInstall("-D");
    expect(local.status, local.stderr).toBe(0);
    expect(warnings(local.stderr)).toEqual([]);
    expect(local.stderr).not.toContain("EBADENGINE");
    expect(readdirSync(p.path("node_modules")).sort()).toEqual([
      ".bin",
      ".package-lock.json",
      "playbook-kit",
    ]);
    const manifest = JSON.parse(
      p.read("node_modules/playbook-kit/package.json"),
    ) as Record<string, unknown>;
    expect(manifest["dependencies"]).toBeUndefined();
    const version = spawnSync(
      process.execPath,
      [p.path("node_modules/playbook-kit/dist/cli.mjs"), "--version"],
      { encoding: "utf8" },
    );
    expect(version.stdout.trim()).toBe(manifest["version"]);

    const global = npmInstall("-g", "--prefix", p.path("global"));
    expect(global.status, global.stderr).toBe(0);
    expect(warnings(global.stderr)).toEqual([]);
    expect(
      readdirSync(p.path("global/lib/node_modules")).filter(
        (name) => !name.startsWith("."),
      ),
    ).toEqual(["playbook-kit"]);
    const globalVersion = spawnSync(
      p.path("global/bin/playbook"),
      ["--version"],
      {
        encoding: "utf8",
      },
    );
    expect(globalVersion.stdout.trim()).toBe(manifest["version"]);
  });
});
