import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REPOSITORY = join(import.meta.dirname, "..");
let packed: string | null = null;

/**
 * The package as npm publishes it: `npm pack` of this repository (built first), made once per process. Its
 * `dist/` bundles every runtime dependency, so unpacking it is what `npm i -D playbook-kit` leaves in a project.
 */
export function packPlaybook(): string {
  if (packed !== null && existsSync(packed)) return packed;
  if (!existsSync(join(REPOSITORY, "dist", "cli.mjs")))
    throw new Error(
      "dist/cli.mjs is missing: the CLI is not built. Run `npm run build` first",
    );
  const dir = mkdtempSync(join(tmpdir(), "playbook-pack-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], {
    cwd: REPOSITORY,
    stdio: "ignore",
  });
  const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"));
  if (tarball === undefined)
    throw new Error(`npm pack wrote no tarball into ${dir}`);
  packed = join(dir, tarball);
  return packed;
}

/**
 * Installs the packed package into `projectDir/node_modules/playbook-kit` with its `playbook` entry in
 * `node_modules/.bin`, as npm would, and returns the path of the installed CLI.
 */
export function installPlaybook(projectDir: string): string {
  const installed = join(projectDir, "node_modules", "playbook-kit");
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", [
    "-xzf",
    packPlaybook(),
    "-C",
    installed,
    "--strip-components=1",
  ]);
  const bin = join(projectDir, "node_modules", ".bin");
  mkdirSync(bin, { recursive: true });
  symlinkSync("../playbook-kit/dist/cli.mjs", join(bin, "playbook"));
  return join(installed, "dist", "cli.mjs");
}

/**
 * `npx playbook-kit@<version> <args>` as a user runs it in any repository, with the packed tarball for the version:
 * npx installs it into its own cache (`cache`; offline, since it has no dependencies) and runs its `playbook`.
 */
export function npxPlaybookArgs(args: readonly string[]): string[] {
  return [
    "--yes",
    "--offline",
    `--package=${packPlaybook()}`,
    "--",
    "playbook",
    ...args,
  ];
}

/** The environment of that npx: its own cache, no update check. */
export function npxEnv(
  env: NodeJS.ProcessEnv,
  cache: string,
): NodeJS.ProcessEnv {
  return {
    ...env,
    npm_config_cache: cache,
    npm_config_update_notifier: "false",
  };
}
