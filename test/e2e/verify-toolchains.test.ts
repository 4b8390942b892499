import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectDefaults } from "../../src/core/scaffold/detect-defaults.ts";
import { readToolchainFiles } from "../../src/core/scaffold/detect-toolchains.ts";
import { approveInTest } from "../helpers/guarded-repo.ts";
import { requireSandboxTools, requireTool } from "../helpers/required-tools.ts";
import { CLI_BUNDLE, childEnv } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-toolchain.md";
/** This repository's own node_modules: vitest, linked into a project as `npm install <folder>` leaves it. */
const OWN_MODULES = join(import.meta.dirname, "..", "..", "node_modules");

type Commands = [technical: string, consistency: string, completeness: string];

function playbookWith(commands: Commands): string {
  const [technical, consistency, completeness] = commands.map((c) =>
    JSON.stringify(`automated - ${c}`),
  );
  return `# playbook-toolchain

## meta
\`\`\`yaml
reviewed: true
branch: feat/toolchain
\`\`\`

## goal
\`\`\`yaml
summary: The project's own test runner proves the work.
done_when:
  - the tests pass
\`\`\`

## context
Who: us. What: the toolchain's validations.

## phases

### p1: Toolchain
**status**: in_progress

- [ ] **p1.1**: the tests run
  - executor: claudecode
  - validations:
    - technical: ${technical}
    - consistency: ${consistency}
    - completeness: ${completeness}

## final_tasks
- [ ] **ft1**: clean up
`;
}

/** A committed project holding `files`, with `state.md` and the playbook written by `validations` once detection ran. */
function project(files: Record<string, string>): TempProject {
  const p = createTempProject({
    "state.md": `# state\n\n## playbook\n\`\`\`yaml\nactive: ${PLAYBOOK}\nbranch: feat/toolchain\n\`\`\`\n`,
    ".gitignore":
      ".claude/playbook/*\n!.claude/playbook/records/\nnode_modules/\ntarget/\n__pycache__/\n.pytest_cache/\n",
    ".claude/playbook.json": `${JSON.stringify({ security: "strict" })}\n`,
    ...files,
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: p.dir, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git(
    "-c",
    "user.name=t",
    "-c",
    "user.email=t@e.x",
    "commit",
    "-q",
    "-m",
    "init",
  );
  return p;
}

/** The commands `playbook init` proposes for the project as it is on disk. */
function detected(p: TempProject): { test: string; lint: string } {
  const rootNames = new Set(readdirSync(p.dir));
  const found = detectDefaults({
    folderName: "calc",
    rootNames,
    files: readToolchainFiles(rootNames, (name) => p.read(name)),
    remoteUrl: null,
  });
  return { test: found.testCommand, lint: found.lintCommand };
}

/** Writes the playbook with these validations, approved as the reviewer would. */
function validations(p: TempProject, commands: Commands): void {
  p.write(PLAYBOOK, playbookWith(commands));
  approveInTest(p.dir, PLAYBOOK);
}

interface VerifyJson {
  results: {
    validation: string;
    run: { exitCode: number | null; outputTail: string[] };
  }[];
  sandbox: { sandboxed: boolean; why?: string };
}

/** `playbook verify p1.1 --json` with the built CLI, given as long as a loaded machine needs to compile. */
function verify(p: TempProject, env: Record<string, string | undefined> = {}) {
  const result = spawnSync(
    process.execPath,
    [
      CLI_BUNDLE,
      "verify",
      "p1.1",
      "--json",
      "--timeout",
      "500",
      "--cwd",
      p.dir,
    ],
    { env: childEnv(env), encoding: "utf8", timeout: 550_000 },
  );
  if (result.error) throw result.error;
  const json = (
    result.stdout.trim().startsWith("{") ? JSON.parse(result.stdout) : null
  ) as VerifyJson | null;
  expect(json, `${result.stdout}\n${result.stderr}`).not.toBeNull();
  expect(json?.sandbox.sandboxed).toBe(true);
  return {
    passed: json?.results.map((r) => r.run.exitCode === 0) ?? [],
    /** Every validation's exit code and last lines, for an assertion's message. */
    report: (json?.results ?? [])
      .map(
        (r) =>
          `${r.validation} ${r.run.exitCode}\n${r.run.outputTail.join("\n")}`,
      )
      .join("\n\n"),
    output: (name: string) =>
      (
        json?.results.find((r) => r.validation === name)?.run.outputTail ?? []
      ).join("\n"),
  };
}

/** Every file under `dir` with a hash of its content, to show that nothing changed there. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile())
        out[path] = createHash("sha256")
          .update(readFileSync(path))
          .digest("hex");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

describe("the project's own toolchain runs in verify's sandbox as in a terminal: no network, its caches allowed", () => {
  it("pytest: the proposed command passes, a failing test fails it, the network stays closed, its caches are the project's", () => {
    requireSandboxTools();
    requireTool(
      "python3",
      ["-m", "pytest", "--version"],
      "apt-get install python3-pytest",
    );
    const p = project({
      "pyproject.toml":
        '[project]\nname = "calc"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      "calc.py": "def multiply(a, b):\n    return a * b\n",
      "tests/test_calc.py":
        "from calc import multiply\n\n\ndef test_multiply():\n    assert multiply(6, 7) == 42\n",
      "checks/test_network.py":
        'import socket\n\n\ndef test_reaches_the_internet():\n    socket.create_connection(("1.1.1.1", 80), timeout=10).close()\n',
    });
    const { test } = detected(p);
    expect(test).toBe("python3 -m pytest");
    validations(p, [
      test,
      "python3 -m pytest -q checks/test_network.py",
      "test -d .pytest_cache && test -d tests/__pycache__",
    ]);

    // Python writes its bytecode beside the sources unless told not to (this machine's environment may).
    const env = { PYTHONDONTWRITEBYTECODE: undefined };
    const first = verify(p, env);

    expect(first.passed, first.report).toEqual([true, false, true]);
    expect(first.output("technical")).toContain("1 passed");
    expect(first.output("consistency")).toContain("1 failed");
    expect(existsSync(p.path(".pytest_cache"))).toBe(true);

    p.write(
      "tests/test_wrong.py",
      "from calc import multiply\n\n\ndef test_wrong():\n    assert multiply(6, 7) == 41\n",
    );
    const second = verify(p, env);

    expect(second.passed[0]).toBe(false);
    expect(second.output("technical")).toContain("1 failed, 1 passed");
  });

  it("make: a Makefile's test target runs as the test command", () => {
    requireSandboxTools();
    requireTool("make", ["--version"], "apt-get install make");
    requireTool(
      "python3",
      ["-m", "pytest", "--version"],
      "apt-get install python3-pytest",
    );
    const p = project({
      Makefile: "test:\n\tpython3 -m pytest -q t\n",
      "t/test_ok.py": "def test_ok():\n    assert 6 * 7 == 42\n",
    });
    const { test } = detected(p);
    expect(test).toBe("make test");
    validations(p, [test, "true", "true"]);

    expect(verify(p).passed).toEqual([true, true, true]);

    p.write("t/test_wrong.py", "def test_wrong():\n    assert 6 * 7 == 41\n");
    expect(verify(p).passed).toEqual([false, true, true]);
  });

  it("npm and vitest: plain `vitest` becomes `npx vitest run`, which runs once, from what the project installed", () => {
    requireSandboxTools();
    const p = project({
      "package.json": JSON.stringify({
        name: "calc",
        scripts: { test: "vitest" },
      }),
      "t/multiply.test.ts":
        'import { expect, test } from "vitest";\ntest("multiplies", () => expect(6 * 7).toBe(42));\n',
    });
    mkdirSync(p.path("node_modules"));
    symlinkSync(
      join(OWN_MODULES, "vitest"),
      p.path("node_modules/vitest"),
      "dir",
    );
    const { test } = detected(p);
    expect(test).toBe("npx vitest run");
    validations(p, [test, "true", "true"]);

    expect(verify(p).passed).toEqual([true, true, true]);

    p.write(
      "t/wrong.test.ts",
      'import { expect, test } from "vitest";\ntest("wrong", () => expect(6 * 7).toBe(41));\n',
    );
    expect(verify(p).passed).toEqual([false, true, true]);
  });

  it("cargo: offline, its registry read where it is and never written, the project's target/ for the build", () => {
    requireSandboxTools();
    requireTool("cargo", ["--version"], "apt-get install cargo");
    const cargoHome = createTempProject();
    // A local registry stands in for crates.io; it sits in cargo's home, which the sandbox shows even under /tmp.
    const registry = localRegistry(cargoHome.path("home/local-registry"));
    cargoHome.write(
      "home/config.toml",
      `[source.crates-io]\nreplace-with = "local"\n\n[source.local]\nlocal-registry = ${JSON.stringify(registry)}\n`,
    );
    const env = {
      CARGO_HOME: cargoHome.path("home"),
      CARGO_TARGET_DIR: undefined,
    };
    const p = project({
      "Cargo.toml":
        '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ngreet = "1"\n',
      "src/lib.rs":
        'pub fn hello() -> String { greet::greet("Ada") }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn greets() { assert_eq!(super::hello(), "Hello, Ada!"); }\n}\n',
    });
    const cargo = (...args: string[]) =>
      execFileSync("cargo", args, {
        cwd: p.dir,
        env: childEnv(env),
        stdio: "pipe",
      });
    // Downloaded (here: unpacked) outside the sandbox, then built from nothing inside it.
    cargo("test", "--no-run", "--quiet");
    execFileSync("rm", ["-rf", p.path("target")]);
    execFileSync("git", ["add", "Cargo.lock"], { cwd: p.dir });
    const unpacked = readdirSync(
      join(cargoHome.path("home"), "registry", "src"),
    );
    expect(unpacked).toHaveLength(1);
    const source = join(
      cargoHome.path("home"),
      "registry",
      "src",
      unpacked[0] ?? "",
      "greet-1.0.0",
      "src",
      "lib.rs",
    );
    const before = snapshot(cargoHome.path("home"));
    const { test } = detected(p);
    expect(test).toBe("cargo test");
    validations(p, [
      test,
      `echo 'pub fn planted() {}' >> ${source}`,
      'test "$CARGO_NET_OFFLINE" = true',
    ]);

    const first = verify(p, env);

    expect(first.passed, first.report).toEqual([true, false, true]);
    expect(first.output("technical")).toContain("test result: ok. 1 passed");
    expect(snapshot(cargoHome.path("home"))).toEqual(before);
    expect(existsSync(p.path("target"))).toBe(true);

    p.write(
      "tests/wrong.rs",
      '#[test]\nfn wrong() { assert_eq!(calc::hello(), "Hello, Bob!"); }\n',
    );
    const second = verify(p, env);

    expect(second.passed[0]).toBe(false);
    expect(second.output("technical")).toContain("test result: FAILED");
  });

  it("go: module cache read where it is, GOPROXY=off fails at once, the build cache playbook keeps, never the user's", () => {
    requireSandboxTools();
    requireTool("go", ["version"], "apt-get install golang-go");
    const outside = createTempProject();
    const proxy = goModuleProxy(outside.path("proxy"));
    const xdg = outside.path("xdg");
    mkdirSync(xdg);
    const env = {
      GOMODCACHE: outside.path("gomod"),
      XDG_CACHE_HOME: xdg,
      GOCACHE: undefined,
      GOPATH: outside.path("gopath"),
      GOPROXY: undefined,
      GOFLAGS: undefined,
    };
    const p = project({
      "go.mod":
        "module example.com/calc\n\ngo 1.19\n\nrequire example.com/greet v1.0.0\n",
      "calc.go":
        'package calc\n\nimport "example.com/greet"\n\nfunc Hello() string { return greet.Greet("Ada") }\n',
      "calc_test.go":
        'package calc\n\nimport "testing"\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != "Hello, Ada!" {\n\t\tt.Fatal(Hello())\n\t}\n}\n',
    });
    // Downloaded outside the sandbox, as a user with network does (here from a folder).
    execFileSync("go", ["mod", "download", "-x", "example.com/greet"], {
      cwd: p.dir,
      env: childEnv({
        ...env,
        GOPROXY: `file://${proxy}`,
        GOSUMDB: "off",
        GOFLAGS: "-mod=mod -modcacherw",
        GOCACHE: outside.path("setup-cache"),
      }),
      stdio: "pipe",
    });
    const moduleDir = join(
      outside.path("gomod"),
      "example.com",
      "greet@v1.0.0",
    );
    expect(existsSync(join(moduleDir, "greet.go"))).toBe(true);
    const before = snapshot(outside.path("gomod"));
    const { test, lint } = detected(p);
    expect([test, lint]).toEqual(["go test ./...", "go vet ./..."]);
    validations(p, [
      test,
      lint,
      `echo planted > ${join(moduleDir, "planted.go")}`,
    ]);

    const first = verify(p, env);

    expect(first.passed, first.report).toEqual([true, true, false]);
    expect(first.output("technical")).toMatch(/^ok\s+example\.com\/calc/m);
    expect(snapshot(outside.path("gomod"))).toEqual(before);
    expect(existsSync(join(xdg, "go-build"))).toBe(false);
    expect(
      readdirSync(join(xdg, "playbook-kit", "verify", "go-build")).length,
    ).toBeGreaterThan(0);

    p.write(
      "calc_test.go",
      'package calc\n\nimport "testing"\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != "Hello, Bob!" {\n\t\tt.Fatal(Hello())\n\t}\n}\n',
    );
    validations(p, [
      test,
      "go mod download example.com/missing@v1.0.0",
      "go env GOCACHE GOPROXY",
    ]);
    const second = verify(p, env);

    expect(second.passed, second.report).toEqual([false, false, true]);
    expect(second.output("technical")).toContain("FAIL");
    expect(second.output("consistency")).toContain("GOPROXY=off");
    expect(second.output("completeness").split("\n")).toEqual([
      join(xdg, "playbook-kit", "verify", "go-build"),
      "off",
    ]);

    // A re-proof (CI, the archive's final gate) owes nothing to a cache an earlier run filled: its own, empty one.
    p.write(
      PLAYBOOK,
      p.read(PLAYBOOK).replace("- [ ] **p1.1**", "- [x] **p1.1**"),
    );
    const rerun = spawnSync(
      process.execPath,
      [
        CLI_BUNDLE,
        "check",
        "--rerun",
        "--json",
        "--timeout",
        "500",
        "--cwd",
        p.dir,
      ],
      { env: childEnv(env), encoding: "utf8", timeout: 550_000 },
    );
    const rows = (
      JSON.parse(rerun.stdout) as {
        rerun: { rows: { validation: string; outputTail: string[] }[] };
      }
    ).rerun.rows;
    const gocache = rows.find((r) => r.validation === "completeness")
      ?.outputTail[0];
    expect(gocache).toMatch(/\/playbook-verify-[^/]+\/go-build$/);
  });
});

/**
 * A cargo local registry in `dir` holding `greet 1.0.0` (`greet(name)` returns `Hello, <name>!`), as `cargo
 * local-registry` lays one out: the `.crate` files and an index in crates.io's layout.
 */
function localRegistry(dir: string): string {
  const build = join(dir, "build", "greet-1.0.0");
  mkdirSync(join(build, "src"), { recursive: true });
  writeFileSync(
    join(build, "Cargo.toml"),
    '[package]\nname = "greet"\nversion = "1.0.0"\nedition = "2021"\n',
  );
  writeFileSync(
    join(build, "src", "lib.rs"),
    'pub fn greet(name: &str) -> String { format!("Hello, {name}!") }\n',
  );
  const crate = join(dir, "greet-1.0.0.crate");
  execFileSync("tar", ["-czf", crate, "-C", join(dir, "build"), "greet-1.0.0"]);
  const cksum = createHash("sha256").update(readFileSync(crate)).digest("hex");
  mkdirSync(join(dir, "index", "gr", "ee"), { recursive: true });
  writeFileSync(
    join(dir, "index", "gr", "ee", "greet"),
    `${JSON.stringify({ name: "greet", vers: "1.0.0", deps: [], cksum, features: {}, yanked: false })}\n`,
  );
  return dir;
}

/** A Go module proxy in `dir` (for `GOPROXY=file://...`) serving `example.com/greet v1.0.0`. */
function goModuleProxy(dir: string): string {
  const at = join(dir, "example.com", "greet", "@v");
  mkdirSync(at, { recursive: true });
  const mod = "module example.com/greet\n\ngo 1.19\n";
  writeFileSync(join(at, "list"), "v1.0.0\n");
  writeFileSync(
    join(at, "v1.0.0.info"),
    '{"Version":"v1.0.0","Time":"2026-01-01T00:00:00Z"}\n',
  );
  writeFileSync(join(at, "v1.0.0.mod"), mod);
  const source =
    'package greet\n\nimport "fmt"\n\nfunc Greet(name string) string { return fmt.Sprintf("Hello, %s!", name) }\n';
  execFileSync("python3", [
    "-c",
    [
      "import sys, zipfile",
      "z = zipfile.ZipFile(sys.argv[1], 'w')",
      "z.writestr('example.com/greet@v1.0.0/go.mod', sys.argv[2])",
      "z.writestr('example.com/greet@v1.0.0/greet.go', sys.argv[3])",
      "z.close()",
    ].join("\n"),
    join(at, "v1.0.0.zip"),
    mod,
    source,
  ]);
  return dir;
}
