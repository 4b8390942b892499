/** The root files whose text detection reads; every other fact is a root entry's name. */
export const TOOLCHAIN_FILES = [
  "package.json",
  "Cargo.toml",
  "pyproject.toml",
  "setup.cfg",
  "tox.ini",
  "requirements.txt",
  "requirements-dev.txt",
  "Pipfile",
  "GNUmakefile",
  "makefile",
  "Makefile",
  "justfile",
  "Justfile",
  ".justfile",
] as const;

export type ToolchainFile = (typeof TOOLCHAIN_FILES)[number];

/** The project's root as detection sees it: entry names, and the text of those of `TOOLCHAIN_FILES` it has. */
export interface ToolchainFacts {
  rootNames: ReadonlySet<string>;
  files: ReadonlyMap<string, string>;
}

/** The text of the `TOOLCHAIN_FILES` among `rootNames`, read through `read` (null: unreadable, left out). */
export function readToolchainFiles(
  rootNames: ReadonlySet<string>,
  read: (name: string) => string | null,
): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of TOOLCHAIN_FILES) {
    if (!rootNames.has(name)) continue;
    const text = read(name);
    if (text !== null) files.set(name, text);
  }
  return files;
}

export type ToolchainId = "node" | "rust" | "go" | "python" | "just" | "make";

/** What one toolchain of the project offers: its test and lint commands ("" when it has none) and where it was seen. */
export interface Toolchain {
  id: ToolchainId;
  test: string;
  lint: string;
  /** The file that shows it: `pyproject.toml`, `Makefile`. */
  from: string;
}

/**
 * Every toolchain the project's root shows, most specific first: the languages' own runners (Node's scripts, cargo,
 * go, pytest), then the task runners that usually wrap them (just, make). A toolchain with neither a test nor a lint
 * command is left out.
 */
export function detectToolchains(facts: ToolchainFacts): Toolchain[] {
  return [
    detectNode(facts),
    detectRust(facts),
    detectGo(facts),
    detectPython(facts),
    detectJust(facts),
    detectMake(facts),
  ].filter(
    (t): t is Toolchain => t !== null && (t.test !== "" || t.lint !== ""),
  );
}

const NPM_PLACEHOLDER_TEST = /no test specified/;

function detectNode({ rootNames, files }: ToolchainFacts): Toolchain | null {
  const pkg = readPackageJson(files.get("package.json") ?? null);
  if (pkg === null) return null;
  const has = (name: string) => rootNames.has(name);
  const runner = has("pnpm-lock.yaml")
    ? "pnpm"
    : has("yarn.lock")
      ? "yarn"
      : has("bun.lock") || has("bun.lockb")
        ? "bun"
        : "npm";
  const run = (script: string) =>
    runner === "yarn" ? `yarn ${script}` : `${runner} run ${script}`;
  const exec = (bin: string) =>
    ({
      npm: `npx ${bin}`,
      pnpm: `pnpm exec ${bin}`,
      yarn: `yarn ${bin}`,
      bun: `bunx ${bin}`,
    })[runner];
  const script = pkg.scripts["test"];
  const vitestArgs =
    typeof script === "string" ? watchingVitestArgs(script) : null;
  // Bun's own `bun test` is its test runner, not the script.
  const viaScript = runner === "bun" ? "bun run test" : `${runner} test`;
  const test =
    vitestArgs !== null
      ? exec(`vitest run${vitestArgs}`)
      : typeof script === "string" && !NPM_PLACEHOLDER_TEST.test(script)
        ? viaScript
        : pkg.dependencies.has("vitest")
          ? exec("vitest run")
          : "";
  const lintScript = ["lint", "typecheck", "check"].find(
    (s) => typeof pkg.scripts[s] === "string",
  );
  return {
    id: "node",
    test,
    lint: lintScript ? run(lintScript) : "",
    from: "package.json",
  };
}

/**
 * The arguments of a test script that is vitest in its default mode (` --coverage`, or "" for plain `vitest`), or
 * null for any other script. Plain `vitest` watches at a terminal and runs once elsewhere; `vitest run` runs once
 * everywhere, so a person who runs the proposed command sees what `verify` sees.
 */
function watchingVitestArgs(script: string): string | null {
  const match = /^\s*vitest((?:\s+[^\s&|;<>()`$'"\\]+)*)\s*$/.exec(script);
  if (!match) return null;
  const args = (match[1] ?? "").split(/\s+/).filter(Boolean);
  const chosen = (arg: string) =>
    /^(?:run|watch|dev|bench|related|init|list|typecheck|-w|--run|--watch|--no-watch)(?:=|$)/.test(
      arg,
    );
  return args.some(chosen) ? null : args.map((a) => ` ${a}`).join("");
}

function detectRust({ rootNames }: ToolchainFacts): Toolchain | null {
  if (!rootNames.has("Cargo.toml")) return null;
  return {
    id: "rust",
    test: "cargo test",
    lint: "cargo clippy",
    from: "Cargo.toml",
  };
}

function detectGo({ rootNames }: ToolchainFacts): Toolchain | null {
  const from = ["go.mod", "go.work"].find((name) => rootNames.has(name));
  if (from === undefined) return null;
  return { id: "go", test: "go test ./...", lint: "go vet ./...", from };
}

/** Names at the root that only a Python project has. */
const PYTHON_MARKERS = [
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "tox.ini",
  "pytest.ini",
  "conftest.py",
  "requirements.txt",
  "requirements-dev.txt",
  "Pipfile",
  "uv.lock",
  "poetry.lock",
];

/**
 * pytest where the project shows it: its own config (`pytest.ini`, `[tool.pytest.ini_options]` or `[tool.pytest]`
 * in pyproject.toml, `[tool:pytest]` in setup.cfg, `[pytest]` in tox.ini), a `conftest.py`, pytest among the
 * dependencies, or a `tests/` (`test/`) folder beside the Python project's files.
 */
function detectPython({ rootNames, files }: ToolchainFacts): Toolchain | null {
  const has = (name: string) => rootNames.has(name);
  const marker = PYTHON_MARKERS.find(has);
  if (marker === undefined) return null;
  const text = (name: ToolchainFile) => files.get(name) ?? "";
  const section = (name: ToolchainFile, header: RegExp) =>
    header.test(text(name));
  const configured =
    has("pytest.ini") ||
    has("conftest.py") ||
    section("pyproject.toml", /^\[tool\.pytest(?:\.ini_options)?\]/m) ||
    section("setup.cfg", /^\[tool:pytest\]/m) ||
    section("tox.ini", /^\[pytest\]/m);
  const named = (
    [
      "pyproject.toml",
      "setup.cfg",
      "tox.ini",
      "requirements.txt",
      "requirements-dev.txt",
      "Pipfile",
    ] as const
  ).some((name) => /(?:^|[\s"'[,])pytest\b/m.test(text(name)));
  const testFolder = has("tests") || has("test");
  const test = configured || named || testFolder ? "python3 -m pytest" : "";
  const ruff =
    has("ruff.toml") ||
    has(".ruff.toml") ||
    section("pyproject.toml", /^\[tool\.ruff\b/m);
  const flake8 =
    has(".flake8") ||
    section("setup.cfg", /^\[flake8\]/m) ||
    section("tox.ini", /^\[flake8\]/m);
  const lint = ruff ? "ruff check ." : flake8 ? "python3 -m flake8" : "";
  const from = has("pytest.ini")
    ? "pytest.ini"
    : has("pyproject.toml")
      ? "pyproject.toml"
      : marker;
  return { id: "python", test, lint, from };
}

const JUSTFILES = ["justfile", "Justfile", ".justfile"] as const;

function detectJust({ files }: ToolchainFacts): Toolchain | null {
  const from = JUSTFILES.find((name) => files.has(name));
  if (from === undefined) return null;
  const text = files.get(from) ?? "";
  const has = (recipe: string) =>
    new RegExp(`^@?${recipe}(?:[ \\t][^:\\n]*)?:(?!=)`, "m").test(text);
  return commandsOf("just", from, has);
}

/** GNU make reads the first of these it finds. */
const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"] as const;

function detectMake({ files }: ToolchainFacts): Toolchain | null {
  const from = MAKEFILES.find((name) => files.has(name));
  if (from === undefined) return null;
  const text = files.get(from) ?? "";
  // `test:` or `unit test: deps`, not `test := value` nor a recipe line.
  const has = (target: string) =>
    new RegExp(
      `^(?:[^\\s:#=][^:#=\\n]*?[ \\t])?${target}(?:[ \\t][^:#=\\n]*)?[ \\t]*::?(?!=)`,
      "m",
    ).test(text);
  return commandsOf("make", from, has);
}

/** A task runner's `test` (or else `check`) and `lint` targets. */
function commandsOf(
  id: "just" | "make",
  from: string,
  has: (name: string) => boolean,
): Toolchain {
  const test = ["test", "check"].find(has);
  return {
    id,
    test: test ? `${id} ${test}` : "",
    lint: has("lint") ? `${id} lint` : "",
    from,
  };
}

interface PackageJson {
  name?: string;
  scripts: Record<string, unknown>;
  /** The names in `dependencies` and `devDependencies`. */
  dependencies: ReadonlySet<string>;
}

/** The fields of package.json detection reads, or null when it is missing or not a JSON object. */
export function readPackageJson(text: string | null): PackageJson | null {
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof json !== "object" || json === null) return null;
  const { name, scripts, devDependencies, dependencies } = json as Record<
    string,
    unknown
  >;
  const keys = (value: unknown) =>
    typeof value === "object" && value !== null ? Object.keys(value) : [];
  return {
    ...(typeof name === "string" ? { name } : {}),
    scripts:
      typeof scripts === "object" && scripts !== null
        ? (scripts as Record<string, unknown>)
        : {},
    dependencies: new Set([...keys(devDependencies), ...keys(dependencies)]),
  };
}
