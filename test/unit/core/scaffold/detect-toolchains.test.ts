import { describe, expect, it } from "vitest";
import {
  detectToolchains,
  readToolchainFiles,
  TOOLCHAIN_FILES,
} from "../../../../src/core/scaffold/detect-toolchains.ts";

/** A project root holding `files` (texts) and `names` (folders and files whose text detection does not read). */
function facts(files: Record<string, string>, names: string[] = []) {
  return {
    rootNames: new Set([...Object.keys(files), ...names]),
    files: readToolchainFiles(
      new Set(Object.keys(files)),
      (name) => files[name] ?? null,
    ),
  };
}

const commands = (files: Record<string, string>, names: string[] = []) =>
  detectToolchains(facts(files, names)).map((t) => [t.id, t.test, t.lint]);

const pkg = (scripts: Record<string, string>, more: object = {}) =>
  JSON.stringify({ name: "x", scripts, ...more });

describe("detectToolchains: Python", () => {
  it.each([
    [
      "pyproject.toml with [tool.pytest.ini_options]",
      {
        "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      },
      [],
    ],
    [
      "pyproject.toml with pytest 9's [tool.pytest]",
      { "pyproject.toml": '[tool.pytest]\nminversion = "9.0"\n' },
      [],
    ],
    ["pytest.ini", { "pytest.ini": "[pytest]\n" }, []],
    [
      "setup.cfg with [tool:pytest]",
      { "setup.cfg": "[metadata]\nname = x\n\n[tool:pytest]\naddopts = -q\n" },
      [],
    ],
    [
      "tox.ini with [pytest]",
      { "tox.ini": "[tox]\nenvlist = py311\n\n[pytest]\naddopts = -q\n" },
      [],
    ],
    ["a conftest.py", {}, ["conftest.py"]],
    ["setup.py and a tests/ folder", {}, ["setup.py", "tests"]],
    [
      "pytest among pyproject's dependencies",
      {
        "pyproject.toml":
          '[project]\nname = "x"\n\n[project.optional-dependencies]\ndev = ["pytest>=8", "ruff"]\n',
      },
      [],
    ],
    [
      "pytest-cov in requirements-dev.txt",
      { "requirements-dev.txt": "pytest-cov==5.0\n" },
      [],
    ],
    [
      "poetry's dev group",
      {
        "pyproject.toml":
          '[tool.poetry.group.dev.dependencies]\npytest = "^8.0"\n',
      },
      ["poetry.lock"],
    ],
    [
      "uv.lock, with no runner prefix",
      { "pyproject.toml": '[project]\nname = "x"\n' },
      ["uv.lock", "tests"],
    ],
  ])("%s -> python3 -m pytest", (_name, files, names) => {
    expect(commands(files, names)).toEqual([
      ["python", "python3 -m pytest", ""],
    ]);
  });

  it.each([
    ["pyproject.toml with nothing about tests", { "pyproject.toml": "" }, []],
    [
      "requirements.txt naming pytest-like words",
      { "requirements.txt": "mypytest-tools\n" },
      [],
    ],
  ])("%s -> no test command", (_name, files, names) => {
    expect(detectToolchains(facts(files, names))).toEqual([]);
  });

  it("a tests/ folder alone is no Python project", () => {
    expect(detectToolchains(facts({}, ["tests"]))).toEqual([]);
  });

  it.each([
    [
      "[tool.ruff] in pyproject.toml",
      { "pyproject.toml": "[tool.pytest]\n[tool.ruff]\nline-length = 100\n" },
      [],
      "ruff check .",
    ],
    [
      "[tool.ruff.lint]",
      { "pyproject.toml": "[tool.pytest]\n[tool.ruff.lint]\nselect = []\n" },
      [],
      "ruff check .",
    ],
    ["ruff.toml", { "pytest.ini": "" }, ["ruff.toml"], "ruff check ."],
    [
      "flake8 in setup.cfg",
      { "setup.cfg": "[tool:pytest]\n[flake8]\nmax-line-length = 100\n" },
      [],
      "python3 -m flake8",
    ],
    [".flake8", { "pytest.ini": "" }, [".flake8"], "python3 -m flake8"],
  ])("lint from %s -> %s", (_name, files, names, lint) => {
    expect(commands(files, names)).toEqual([
      ["python", "python3 -m pytest", lint],
    ]);
  });
});

describe("detectToolchains: Go and Rust", () => {
  it.each([
    ["go.mod", ["go", "go test ./...", "go vet ./..."]],
    ["go.work", ["go", "go test ./...", "go vet ./..."]],
    ["Cargo.toml", ["rust", "cargo test", "cargo clippy"]],
  ])("%s -> %j", (name, expected) => {
    expect(commands({}, [name])).toEqual([expected]);
  });
});

describe("detectToolchains: Node", () => {
  it.each([
    ["a test script, npm", pkg({ test: "node --test" }), [], "npm test"],
    [
      "a test script, pnpm",
      pkg({ test: "jest" }),
      ["pnpm-lock.yaml"],
      "pnpm test",
    ],
    ["a test script, yarn", pkg({ test: "jest" }), ["yarn.lock"], "yarn test"],
    [
      "a test script, bun (the script, not bun's runner)",
      pkg({ test: "jest" }),
      ["bun.lock"],
      "bun run test",
    ],
    [
      "npm's placeholder",
      pkg({ test: 'echo "Error: no test specified" && exit 1' }),
      [],
      "",
    ],
    [
      "plain vitest, which watches at a terminal",
      pkg({ test: "vitest" }),
      [],
      "npx vitest run",
    ],
    [
      "vitest with flags",
      pkg({ test: "vitest --coverage --reporter=dot" }),
      [],
      "npx vitest run --coverage --reporter=dot",
    ],
    [
      "plain vitest, pnpm",
      pkg({ test: "vitest" }),
      ["pnpm-lock.yaml"],
      "pnpm exec vitest run",
    ],
    [
      "plain vitest, yarn",
      pkg({ test: "vitest" }),
      ["yarn.lock"],
      "yarn vitest run",
    ],
    [
      "plain vitest, bun",
      pkg({ test: "vitest" }),
      ["bun.lockb"],
      "bunx vitest run",
    ],
    ["vitest run already", pkg({ test: "vitest run" }), [], "npm test"],
    ["vitest --run already", pkg({ test: "vitest --run" }), [], "npm test"],
    ["vitest in a chain", pkg({ test: "tsc && vitest" }), [], "npm test"],
    [
      "no test script, vitest installed",
      pkg({}, { devDependencies: { vitest: "4" } }),
      [],
      "npx vitest run",
    ],
    ["no test script, nothing", pkg({}), [], ""],
  ])("%s -> %j", (_name, json, names, test) => {
    const found = detectToolchains(facts({ "package.json": json }, names));
    expect(found.find((t) => t.id === "node")?.test ?? "").toBe(test);
  });

  it.each([
    [{ lint: "eslint .", typecheck: "tsc" }, [], "npm run lint"],
    [{ typecheck: "tsc" }, ["pnpm-lock.yaml"], "pnpm run typecheck"],
    [{ check: "biome check" }, ["yarn.lock"], "yarn check"],
  ])("lint script %j -> %s", (scripts, names, lint) => {
    expect(
      detectToolchains(facts({ "package.json": pkg(scripts) }, names))[0]?.lint,
    ).toBe(lint);
  });

  it("a package.json that is not JSON is no Node project", () => {
    expect(detectToolchains(facts({ "package.json": "{" }))).toEqual([]);
  });
});

describe("detectToolchains: make and just", () => {
  it.each([
    [
      "Makefile",
      "test:\n\tpytest\nlint:\n\truff check .\n",
      ["make test", "make lint"],
    ],
    ["GNUmakefile", "test: build\n\t./run\n", ["make test", ""]],
    ["makefile", "check:\n\tcargo test\n", ["make check", ""]],
    ["Makefile", "unit test: deps\n\tgo test\n", ["make test", ""]],
    ["Makefile", "test::\n\tgo test\n", ["make test", ""]],
    [
      "Makefile",
      "test := go test\nlint = x\n.PHONY: all\nall:\n\t$(test)\n",
      ["", ""],
    ],
    ["Makefile", "testing:\n\tx\nlinter:\n\ty\n", ["", ""]],
    ["Makefile", "all:\n\techo test: lint:\n", ["", ""]],
    [
      "justfile",
      "test:\n  cargo test\n\nlint:\n  cargo clippy\n",
      ["just test", "just lint"],
    ],
    ["Justfile", "@test *ARGS:\n  pytest {{ARGS}}\n", ["just test", ""]],
    [".justfile", "check arg='x': build\n  make\n", ["just check", ""]],
    ["justfile", "test := 'x'\ntesting:\n  x\n", ["", ""]],
  ])("%s %j -> %j", (name, text, [test, lint]) => {
    const found = detectToolchains(facts({ [name]: text }));
    expect(found.map((t) => [t.test, t.lint])).toEqual(
      test === "" && lint === "" ? [] : [[test, lint]],
    );
  });

  it("make reads GNUmakefile before makefile before Makefile, as GNU make does", () => {
    const found = detectToolchains(
      facts({ Makefile: "lint:\n\tx\n", GNUmakefile: "test:\n\tx\n" }),
    );
    expect(found).toEqual([
      { id: "make", test: "make test", lint: "", from: "GNUmakefile" },
    ]);
  });
});

describe("detectToolchains: several at once", () => {
  it("lists the language's own runner before the task runners that wrap it", () => {
    const found = detectToolchains(
      facts(
        {
          "pyproject.toml": "[tool.pytest.ini_options]\n",
          Makefile: "test:\n\tpytest\nlint:\n\truff check .\n",
          justfile: "test:\n  pytest\n",
        },
        ["tests"],
      ),
    );
    expect(found.map((t) => [t.id, t.test, t.lint, t.from])).toEqual([
      ["python", "python3 -m pytest", "", "pyproject.toml"],
      ["just", "just test", "", "justfile"],
      ["make", "make test", "make lint", "Makefile"],
    ]);
  });

  it("reads only the files it names", () => {
    const read: string[] = [];
    readToolchainFiles(new Set(["package.json", "src", ".env"]), (name) => {
      read.push(name);
      return "";
    });
    expect(read).toEqual(["package.json"]);
    expect(TOOLCHAIN_FILES).not.toContain(".env");
  });
});
