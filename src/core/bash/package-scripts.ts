import { commandName } from "./command-name.ts";

/** The package scripts a package manager command runs, and the folder whose package.json holds them. */
export interface PackageScriptRun {
  /** The folder the command points the manager at (`--prefix`, `--cwd`, `-C`), or null for the current one. */
  dir: string | null;
  /** Script names, with the `pre`/`post` scripts npm, pnpm and yarn 1 run around them. */
  names: string[];
}

/** What `npm install` and its kin run from the project's own package.json. */
const INSTALL_SCRIPTS = [
  "preinstall",
  "install",
  "postinstall",
  "prepublish",
  "preprepare",
  "prepare",
  "postprepare",
];

const NPM_ALIASES: Record<string, string> = {
  t: "test",
  tst: "test",
  test: "test",
  start: "start",
  stop: "stop",
  restart: "restart",
};
const INSTALLS = new Set(["install", "i", "ci", "isntall", "add"]);
const RUNS = new Set(["run", "run-script", "rum", "urn"]);
/** yarn and pnpm subcommands that are not scripts: `yarn add` adds a package even if a script is called `add`. */
const BUILT_INS = new Set([
  "add",
  "audit",
  "bin",
  "cache",
  "config",
  "create",
  "dedupe",
  "dlx",
  "exec",
  "global",
  "import",
  "info",
  "init",
  "link",
  "list",
  "ls",
  "outdated",
  "pack",
  "patch",
  "plugin",
  "prune",
  "publish",
  "rebuild",
  "remove",
  "rm",
  "root",
  "set",
  "store",
  "unlink",
  "up",
  "update",
  "upgrade",
  "version",
  "why",
  "workspace",
  "workspaces",
]);
/** Options whose value is the folder the manager works in. */
const DIR_OPTIONS = new Set(["--prefix", "--cwd", "--dir", "-C"]);

/**
 * The package scripts `npm run X`, `npm test`, `yarn X`, `pnpm run X`, `bun run X` and `npm install` (its lifecycle
 * scripts) would run: the line names only the script, package.json says what it does. Null for any other command.
 */
export function packageScriptRun(
  argv: readonly string[],
): PackageScriptRun | null {
  const manager = commandName(argv[0]);
  if (!["npm", "pnpm", "yarn", "bun"].includes(manager)) return null;
  let dir: string | null = null;
  const operands: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      break;
    }
    const inline = /^(--prefix|--cwd|--dir)=(.*)$/.exec(arg);
    if (inline) dir = inline[2]!;
    else if (DIR_OPTIONS.has(arg)) dir = args[++i] ?? null;
    else if (!arg.startsWith("-")) operands.push(arg);
    // Only the subcommand and the script's name matter; the script's own arguments come after them.
    if (operands.length >= 2) break;
  }
  const [sub, next] = operands;
  const names = scriptNames(manager, sub, next);
  return names.length === 0 ? null : { dir, names: withPrePost(names) };
}

function scriptNames(
  manager: string,
  sub: string | undefined,
  next: string | undefined,
): string[] {
  if (sub === undefined) return manager === "yarn" ? INSTALL_SCRIPTS : [];
  if (RUNS.has(sub)) return next === undefined ? [] : [next];
  if (INSTALLS.has(sub)) return INSTALL_SCRIPTS;
  if (manager === "bun") return [];
  const alias = NPM_ALIASES[sub];
  if (alias !== undefined)
    return alias === "restart" ? ["restart", "stop", "start"] : [alias];
  // yarn and pnpm run a script named by the first word when it is no command of their own.
  return manager !== "npm" && !BUILT_INS.has(sub) ? [sub] : [];
}

function withPrePost(names: readonly string[]): string[] {
  return [
    ...new Set(names.flatMap((name) => [`pre${name}`, name, `post${name}`])),
  ];
}
