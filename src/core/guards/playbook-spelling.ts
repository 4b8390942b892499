import { posix } from "node:path";
import type { CliSetup } from "../scaffold/cli-spelling.ts";
import { NPM_PACKAGE, RUNTIME_COPY } from "../scaffold/setup-kind.ts";
import { baseName } from "./command-words.ts";

/**
 * Why a playbook call (`argv`, whose playbook arguments are `args`) is not spelled the way this project runs playbook,
 * with the spelling that works from the agent's folder; null when it is, or when the setup accepts any (a checkout).
 * A wrong spelling fails in the agent's shell (no `playbook` on PATH, no `node_modules`), or runs another copy of
 * playbook, or makes npx fetch the registry's unrelated `playbook` package.
 */
export function spellingProblem(
  argv: readonly string[],
  args: readonly string[],
  setup: CliSetup | undefined,
  where: { projectDir: string; cwd: string },
): string | null {
  if (setup === undefined || (setup.kind !== "npm" && setup.kind !== "runtime"))
    return null;
  const prefix = argv.slice(0, Math.max(0, argv.length - args.length));
  if (!looksLikePlaybook(prefix)) return null;
  const root = posix.normalize(where.projectDir.replace(/\\/g, "/"));
  const resolve = (path: string) =>
    posix.resolve(where.cwd.replace(/\\/g, "/"), path.replace(/\\/g, "/"));
  const accepted =
    setup.kind === "npm"
      ? [
          `${root}/${NPM_PACKAGE}/dist/cli.mjs`,
          `${root}/node_modules/.bin/playbook`,
        ]
      : [`${root}/${RUNTIME_COPY}/dist/cli.mjs`];
  const [first = "", second = ""] = prefix;
  if (
    setup.kind === "npm" &&
    prefix.length === 3 &&
    first === "npx" &&
    (second === "--no" || second === "--no-install") &&
    prefix[2] === "playbook"
  )
    return null;
  if (prefix.length === 1 && accepted.includes(resolve(first))) return null;
  if (
    prefix.length === 2 &&
    baseName(first) === "node" &&
    accepted.includes(resolve(second))
  )
    return null;
  const right =
    setup.kind === "npm"
      ? setup.cli
      : `node ${posix.relative(where.cwd.replace(/\\/g, "/"), `${root}/${RUNTIME_COPY}/dist/cli.mjs`)}`;
  const why =
    (first === "npx" || first === "pnpx" || first === "bunx") &&
    !prefix.includes("--no") &&
    !prefix.includes("--no-install")
      ? "npx without `--no` may fetch the registry's unrelated `playbook` package"
      : `it runs as \`${setup.cli}\` here`;
  // The agent's spelling in quotes, not a code span: replies spell code spans the project's way (`spellCommands`).
  return `Blocked: "${[...prefix, ...args].join(" ")}" is not how this project runs playbook: ${why}. Next: run \`${[right, ...args].join(" ")}\`.`;
}

/** A spelling that means playbook (not a project's own `cli.mjs`): the name, npx or npm exec, or a path naming it. */
function looksLikePlaybook(prefix: readonly string[]): boolean {
  const first = baseName(prefix[0] ?? "");
  if (["playbook", "npx", "pnpx", "bunx", "npm", "pnpm"].includes(first))
    return true;
  return prefix.some((word) => /playbook/i.test(word));
}
