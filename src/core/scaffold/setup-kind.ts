/**
 * How a project runs playbook (docs/getting-started.md, "Two setups"):
 * - `npm`: a project install (`npm i -D playbook-kit`), found in `node_modules/playbook-kit`; teammates get it with
 *   `npm ci`.
 * - `runtime`: any git repository: `npx playbook-kit@<version> init` copies the package into `RUNTIME_COPY`, which git
 *   ignores and the agent cannot write; teammates get it with `npx playbook-kit@<version> install`.
 * - `plugin`: the Claude Code plugin brings the hooks; the CLI runs through npx.
 * - `checkout`: a source checkout of playbook itself (its development): the hooks name its absolute path, and init
 *   says that no teammate can use such settings.
 */
export type SetupKind = "npm" | "runtime" | "plugin" | "checkout";

/** Where the runtime setup keeps its copy of the package, relative to the project's root. */
export const RUNTIME_COPY = ".claude/playbook/runtime";

/** The package of a project install, relative to the project's root. */
export const NPM_PACKAGE = "node_modules/playbook-kit";

/**
 * How the user and the agent run the CLI in a setup: `npx --no` never fetches the unrelated `playbook` package of the
 * registry; the runtime copy is run by its path from the project's root. A checkout is named by its absolute CLI.
 */
export function cliSpelling(kind: SetupKind, checkoutCli = ""): string {
  if (kind === "npm") return "npx --no playbook";
  if (kind === "runtime") return `node ${RUNTIME_COPY}/dist/cli.mjs`;
  // A plugin puts no bin on PATH.
  if (kind === "plugin") return "npx -y playbook-kit";
  return checkoutCli;
}

/** The hook bundle as settings.json names it, for the setups that name it relative to the project. */
export function projectHookPath(kind: "npm" | "runtime"): string {
  return `\${CLAUDE_PROJECT_DIR}/${kind === "npm" ? NPM_PACKAGE : RUNTIME_COPY}/dist/hook.cjs`;
}

/** The one command that gives a fresh clone of a project its playbook, by setup. */
export function installCommand(kind: SetupKind, version: string): string {
  if (kind === "npm") return "npm install";
  if (kind === "runtime") return `npx playbook-kit@${version} install`;
  if (kind === "plugin") return "claude plugin install playbook-kit";
  return "npm run build (in the playbook checkout)";
}

/** The one command that upgrades a setup to the newest playbook-kit, by setup. */
export function upgradeCommand(kind: SetupKind, cli: string): string {
  if (kind === "npm")
    return "npm i -D playbook-kit@latest && npx --no playbook upgrade";
  if (kind === "runtime") return "npx playbook-kit@latest upgrade";
  return `${cli} upgrade`;
}
