import { defineCommand } from "citty";
import { runStatus } from "../../app/lint/status.ts";
import { createColors } from "../print/colors.ts";
import { formatStatus } from "../print/status.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const statusCommand = defineCommand({
  meta: {
    name: "status",
    description:
      "Show the active playbook, phase progress, the next open subtasks and diagnostics",
  },
  args: { ...sharedArgs },
  run({ args }) {
    const report = runStatus(projectRoot(args));
    if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else
      process.stdout.write(
        `${formatStatus(report, createColors()).join("\n")}\n`,
      );
  },
});
