import { existsSync } from "node:fs";
import { join, sep } from "node:path";

/**
 * Where settings.json finds the hook bundle, and how prompts call the CLI (docs/generator.md). A project install is named
 * relative to `${CLAUDE_PROJECT_DIR}`, so the committed settings work for every teammate and machine; otherwise
 * (a global install, a checkout) the absolute path of the running package is used, which `playbook doctor` checks.
 */
export function locateHook(
  dir: string,
  packageRoot: string,
): { hookPath: string; cli: string } {
  if (existsSync(join(dir, "node_modules", "playbook-kit", "dist", "hook.cjs")))
    return {
      hookPath: "${CLAUDE_PROJECT_DIR}/node_modules/playbook-kit/dist/hook.cjs",
      // `--no`: never fetch an unrelated `playbook` package from the registry when node_modules is not installed.
      cli: "npx --no playbook",
    };
  const hookPath = join(packageRoot, "dist", "hook.cjs").split(sep).join("/");
  const global = packageRoot.split(sep).includes("node_modules");
  return {
    hookPath,
    cli: global
      ? "playbook"
      : `node "${join(packageRoot, "dist", "cli.mjs").split(sep).join("/")}"`,
  };
}
