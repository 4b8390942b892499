import { createRequire } from "node:module";
import { join } from "node:path";
import { findPackageRoot } from "../../adapters/package-root.ts";
import { defineCommand } from "citty";
import { projectRoot, sharedArgs } from "../shared-args.ts";

/**
 * `playbook statusline`: the Claude Code status line (its JSON on stdin, one line on stdout). Wire
 * `node <path>/dist/hook.cjs statusline` instead for speed; both run the same code.
 */
export const statuslineCommand = defineCommand({
  meta: {
    name: "statusline",
    description:
      "Print the Claude Code status line: branch, playbook, phase progress, next step, lock",
  },
  args: { cwd: sharedArgs.cwd },
  async run({ args }) {
    const require = createRequire(import.meta.url);
    // This command runs from a chunk in dist/chunks/; the hook bundles sit in dist/.
    const hook = require(
      join(findPackageRoot().root, "dist", "hook-session.cjs"),
    ) as {
      hookMain: (argv: readonly string[]) => Promise<void>;
    };
    await hook.hookMain(
      args.cwd === undefined
        ? ["statusline"]
        : ["statusline", "--cwd", projectRoot(args)],
    );
  },
});
