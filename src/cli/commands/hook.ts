import { createRequire } from "node:module";
import { join } from "node:path";
import { findPackageRoot } from "../../adapters/package-root.ts";
import { defineCommand } from "citty";
import { bundleFor } from "../../hooks/bundle-for.ts";

/**
 * `playbook hook <Event>`: the same runtime as `node dist/hook.cjs <Event>`, for people who wire the CLI. The hook
 * bundle is loaded as it is, so both answer identically.
 */
export const hookCommand = defineCommand({
  meta: {
    name: "hook",
    description:
      "Answer one Claude Code hook event (event JSON on stdin, one reply on stdout)",
  },
  args: {
    event: {
      type: "positional",
      required: true,
      description:
        "SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Stop, SubagentStop, PreCompact or SessionEnd",
    },
  },
  async run({ args }) {
    const event = String(args.event);
    const require = createRequire(import.meta.url);
    // This command runs from a chunk in dist/chunks/; the hook bundles sit in dist/.
    const hook = require(
      join(findPackageRoot().root, "dist", `${bundleFor(event)}.cjs`),
    ) as {
      hookMain: (argv: readonly string[]) => Promise<void>;
    };
    await hook.hookMain([event]);
  },
});
