import { defineCommand } from "citty";
import { findPackageRoot } from "../../adapters/package-root.ts";
import { runNew } from "../../app/scaffold/run-new.ts";
import { PlaybookError } from "../../core/errors.ts";
import { createColors } from "../print/colors.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const newCommand = defineCommand({
  meta: {
    name: "new",
    description:
      "Start a playbook: plan/playbook-<name>.md from the skeleton, branch feat/<name>, state.md pointing at both",
  },
  args: {
    ...sharedArgs,
    name: {
      type: "positional",
      description: "The task's name in kebab-case, e.g. login-form",
      required: true,
    },
  },
  run({ args }) {
    const name = args.name === undefined ? undefined : String(args.name);
    if (!name)
      throw new PlaybookError("E_USAGE", "Missing the playbook's name.", {
        hint: "For example: `playbook new login-form`.",
      });
    const root = projectRoot(args);
    const created = runNew(root, name, {
      packageRoot: findPackageRoot().root,
      now: () => new Date(),
    });
    if (args.json) {
      process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
      return;
    }
    const c = createColors();
    process.stdout.write(
      `${c.green("created")} ${created.playbook} on branch ${created.branch}; state.md points at it.\n${c.dim("Next: fill it in (the pm subagent does this from the understanding check) until `playbook lint` is clean, then have the reviewer approve it.")}\n`,
    );
  },
});
