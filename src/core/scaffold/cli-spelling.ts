import {
  NPM_PACKAGE,
  RUNTIME_COPY,
  cliSpelling,
  type SetupKind,
} from "./setup-kind.ts";

/** How one project runs playbook: its setup and the spelling every message and prompt uses. */
export interface CliSetup {
  kind: SetupKind;
  cli: string;
}

const slashed = (path: string) => path.replace(/\\/g, "/").replace(/\/+$/, "");

/** A path as one shell word: as it is when it needs no quoting, else in single quotes (JSON-safe, unlike `"`). */
export function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path)
    ? path
    : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * The setup a running copy of playbook belongs to, from where its `dist` folder is: the plugin Claude Code started it
 * from (`pluginRoot`, even when that is a project's `node_modules`), the project's `node_modules` (npm), the project's
 * runtime copy, or anywhere else (a checkout, named by its absolute CLI).
 */
export function setupOfDist(
  projectDir: string,
  distDir: string,
  pluginRoot?: string,
): CliSetup {
  const dist = slashed(distDir);
  const root = slashed(projectDir);
  if (
    pluginRoot !== undefined &&
    pluginRoot !== "" &&
    dist === `${slashed(pluginRoot)}/dist`
  )
    return { kind: "plugin", cli: cliSpelling("plugin") };
  if (dist === `${root}/${NPM_PACKAGE}/dist`)
    return { kind: "npm", cli: cliSpelling("npm") };
  if (dist === `${root}/${RUNTIME_COPY}/dist`)
    return { kind: "runtime", cli: cliSpelling("runtime") };
  return {
    kind: "checkout",
    cli: cliSpelling("checkout", `node ${shellWord(`${dist}/cli.mjs`)}`),
  };
}

/**
 * `text` with each command that starts a code span (`` `playbook verify p1` ``, `` `npx --no playbook doctor` ``)
 * spelled as `setup` runs it, so that what a message tells the agent or the user to run works as written. A
 * checkout's messages are left as they are: it is playbook's own development, where tests read them.
 */
export function spellCommands(text: string, setup: CliSetup): string {
  if (setup.kind !== "npm" && setup.kind !== "runtime") return text;
  return text.replace(
    /`(?:npx --no playbook|playbook) (?=[a-z-])/g,
    `\`${setup.cli} `,
  );
}
