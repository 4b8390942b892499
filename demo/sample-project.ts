import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface SampleProject {
  /** The working copy the session runs in. */
  dir: string;
  /** The bare repository `origin` points at. */
  remoteDir: string;
  /** Runs git in the working copy (as the user, with a fixed identity) and returns its output. */
  git(...args: string[]): string;
  /** Runs git in the bare remote and returns its output. */
  remoteGit(...args: string[]): string;
}

/** `calc`, a small Node package with one function and its test: what a user points Claude Code at. */
export const SAMPLE_FILES: Record<string, string> = {
  "package.json": `${JSON.stringify(
    {
      name: "calc",
      version: "1.0.0",
      type: "module",
      scripts: { test: "node --test" },
    },
    null,
    2,
  )}\n`,
  "src/sum.js": "export function sum(a, b) {\n  return a + b;\n}\n",
  "test/sum.test.js":
    'import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { sum } from "../src/sum.js";\n\ntest("sum adds two numbers", () => {\n  assert.equal(sum(2, 3), 5);\n});\n',
  "README.md": "# calc\n\nSmall arithmetic helpers.\n\n- `sum(a, b)`\n",
  "CHANGELOG.md": "# Changelog\n\n## Unreleased\n",
  ".gitignore": "node_modules/\n",
};

const IDENTITY = {
  GIT_AUTHOR_NAME: "Sam Example",
  GIT_AUTHOR_EMAIL: "sam@example.com",
  GIT_COMMITTER_NAME: "Sam Example",
  GIT_COMMITTER_EMAIL: "sam@example.com",
};

/** `calc` as a Python project: a module with one function and its pytest test, no package.json. */
export const PYTHON_SAMPLE_FILES: Record<string, string> = {
  "pyproject.toml":
    '[project]\nname = "calc"\nversion = "1.0.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
  "calc/__init__.py": "",
  "calc/sum.py": "def sum(a, b):\n    return a + b\n",
  "tests/test_sum.py":
    "from calc.sum import sum\n\n\ndef test_sum_adds_two_numbers():\n    assert sum(2, 3) == 5\n",
  "README.md": "# calc\n\nSmall arithmetic helpers.\n\n- `sum(a, b)`\n",
  "CHANGELOG.md": "# Changelog\n\n## Unreleased\n",
  ".gitignore": "__pycache__/\n.pytest_cache/\n",
};

/** `calc` as a Go module: one function and its test, no package.json. */
export const GO_SAMPLE_FILES: Record<string, string> = {
  "go.mod": "module example.com/calc\n\ngo 1.19\n",
  "sum.go": "package calc\n\nfunc Sum(a, b int) int {\n\treturn a + b\n}\n",
  "sum_test.go":
    'package calc\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(2, 3) != 5 {\n\t\tt.Fatal("2 + 3 is not 5")\n\t}\n}\n',
  "README.md": "# calc\n\nSmall arithmetic helpers.\n\n- `sum(a, b)`\n",
  "CHANGELOG.md": "# Changelog\n\n## Unreleased\n",
};

/**
 * Writes the sample project (`files`, the Node one by default) into `dir/calc`, makes it a git repository on `main` with one commit, and pushes it to a
 * bare remote in `dir/calc.git` (`origin`, whose HEAD is `main`).
 */
export function createSampleProject(
  root: string,
  files: Record<string, string> = SAMPLE_FILES,
): SampleProject {
  const dir = join(root, "calc");
  const remoteDir = join(root, "calc.git");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const run = (cwd: string, args: string[]) =>
    execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      env: { ...process.env, ...IDENTITY },
      stdio: ["ignore", "pipe", "pipe"],
    });
  execFileSync("git", ["init", "--bare", "-q", "-b", "main", remoteDir]);
  const git = (...args: string[]) => run(dir, args);
  git("init", "-q", "-b", "main");
  // The archive commits as the repository's user, so the sample has one without relying on a global config.
  git("config", "user.name", IDENTITY.GIT_AUTHOR_NAME);
  git("config", "user.email", IDENTITY.GIT_AUTHOR_EMAIL);
  git("add", "-A");
  git("commit", "-q", "-m", "calc: sum");
  git("remote", "add", "origin", remoteDir);
  git("push", "-q", "-u", "origin", "main");
  git("remote", "set-head", "origin", "main");
  return {
    dir,
    remoteDir,
    git,
    remoteGit: (...args) => run(remoteDir, args),
  };
}
