import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

/** A committed git repository holding `files`, with playbook-kit installed in node_modules (as `npm i -D` leaves it). */
function project(files: Record<string, string>): TempProject {
  const p = createTempProject({
    "node_modules/playbook-kit/dist/hook.cjs": "// the installed bundle\n",
    "node_modules/playbook-kit/dist/hook-main.cjs": "// tool calls\n",
    "node_modules/playbook-kit/dist/hook-session.cjs": "// session events\n",
    ".gitignore": "node_modules/\n",
    ...files,
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: p.dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Dev");
  git("config", "user.email", "dev@example.com");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  return p;
}

const cli = (p: TempProject, ...args: string[]) =>
  runCli([...args, "--cwd", p.dir], { env: { LANG: "C", LC_ALL: undefined } });

describe("init proposes the project's own toolchain, and the agents and the skeleton use it", () => {
  it.each([
    [
      "a Python project with a Makefile",
      {
        "pyproject.toml":
          '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n\n[tool.ruff]\n',
        "tests/test_calc.py": "def test_ok():\n    pass\n",
        Makefile: "test:\n\tpython3 -m pytest\n",
      },
      "python3 -m pytest",
      "ruff check .",
      "Also found `make test` (Makefile)",
    ],
    [
      "a Go module",
      { "go.mod": "module example.com/calc\n\ngo 1.19\n" },
      "go test ./...",
      "go vet ./...",
      null,
    ],
    [
      "a crate with a justfile",
      {
        "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\n',
        justfile: "test:\n  cargo test\n\nlint:\n  cargo clippy\n",
      },
      "cargo test",
      "cargo clippy",
      "Also found `just test` (justfile), `just lint` (justfile)",
    ],
    [
      "a Node project whose test script is plain vitest",
      {
        "package.json": JSON.stringify({
          name: "calc",
          scripts: { test: "vitest", lint: "eslint ." },
        }),
      },
      "npx vitest run",
      "npm run lint",
      null,
    ],
  ])("%s", (_name, files, test, lint, note) => {
    const p = project(files);

    const init = cli(p, "init", "--yes");

    expect(init.stderr).toBe("");
    expect(init.status).toBe(0);
    expect(init.stdout).toContain(`tests \`${test}\`, lint \`${lint}\``);
    if (note) expect(init.stdout).toContain(note);
    else expect(init.stdout).not.toContain("Also found");
    expect(p.read(".claude/agents/pm.md")).toContain(
      `For \`consistency\`, run the project's own checks as one command, as \`npx --no playbook new\` wrote it:\n  \`${test} && ${lint}\`.`,
    );
    expect(p.read(".claude/commands/test.md")).toContain(`Run \`${test}\``);

    execFileSync("git", ["add", "-A"], { cwd: p.dir });
    execFileSync("git", ["commit", "-q", "-m", "Set up playbook"], {
      cwd: p.dir,
    });
    expect(cli(p, "new", "login-form").status).toBe(0);
    expect(p.read("plan/playbook-login-form.md")).toContain(
      `    - consistency: "automated - ${test} && ${lint}"\n`,
    );
  });
});
