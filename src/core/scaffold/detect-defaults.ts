import { parseRemoteUrl } from "../archive/github-remote.ts";

/** What init can see of a project without asking: root file names and a few files' text. */
export interface ProjectFacts {
  folderName: string;
  /** Names of the entries at the project root. */
  rootNames: ReadonlySet<string>;
  packageJson: string | null;
  makefile: string | null;
  remoteUrl: string | null;
}

export interface DetectedDefaults {
  projectName: string;
  testCommand: string;
  lintCommand: string;
  githubRepository: string | null;
}

const NPM_PLACEHOLDER_TEST = /no test specified/;

/** The test and lint commands, project name and GitHub repository a project suggests (empty when unknown). */
export function detectDefaults(facts: ProjectFacts): DetectedDefaults {
  const pkg = readPackageJson(facts.packageJson);
  const has = (name: string) => facts.rootNames.has(name);
  const remote = facts.remoteUrl ? parseRemoteUrl(facts.remoteUrl) : null;
  const base = {
    projectName: pkg?.name?.replace(/^@[^/]+\//, "") || facts.folderName,
    githubRepository:
      remote && /(^|\.)github\.com$|^github\./.test(remote.host)
        ? `${remote.owner}/${remote.repo}`
        : null,
  };
  if (pkg) {
    const runner = has("pnpm-lock.yaml")
      ? "pnpm"
      : has("yarn.lock")
        ? "yarn"
        : has("bun.lock") || has("bun.lockb")
          ? "bun"
          : "npm";
    const run = (script: string) =>
      runner === "yarn" ? `yarn ${script}` : `${runner} run ${script}`;
    const scripts = pkg.scripts ?? {};
    const test =
      typeof scripts["test"] === "string" &&
      !NPM_PLACEHOLDER_TEST.test(scripts["test"])
        ? runner === "bun"
          ? "bun run test"
          : `${runner} test`
        : "";
    const lintScript = ["lint", "typecheck", "check"].find(
      (s) => typeof scripts[s] === "string",
    );
    return {
      ...base,
      testCommand: test,
      lintCommand: lintScript ? run(lintScript) : "",
    };
  }
  const make = (target: string) =>
    facts.makefile !== null &&
    new RegExp(`^${target}\\s*:`, "m").test(facts.makefile)
      ? `make ${target}`
      : "";
  if (has("Cargo.toml"))
    return { ...base, testCommand: "cargo test", lintCommand: "cargo clippy" };
  if (has("go.mod"))
    return {
      ...base,
      testCommand: "go test ./...",
      lintCommand: "go vet ./...",
    };
  if (["pyproject.toml", "setup.cfg", "pytest.ini", "setup.py"].some(has))
    return {
      ...base,
      testCommand: make("test") || "pytest",
      lintCommand:
        make("lint") ||
        (has("ruff.toml") || has(".ruff.toml") ? "ruff check ." : ""),
    };
  return { ...base, testCommand: make("test"), lintCommand: make("lint") };
}

function readPackageJson(
  text: string | null,
): { name?: string; scripts?: Record<string, unknown> } | null {
  if (text === null) return null;
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json !== "object" || json === null) return null;
    const { name, scripts } = json as { name?: unknown; scripts?: unknown };
    return {
      ...(typeof name === "string" ? { name } : {}),
      ...(typeof scripts === "object" && scripts !== null
        ? { scripts: scripts as Record<string, unknown> }
        : {}),
    };
  } catch {
    return null;
  }
}
