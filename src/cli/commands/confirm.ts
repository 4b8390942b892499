import { defineCommand } from "citty";
import { assertRuntimeWritable } from "../../app/records/runtime-writable.ts";
import { askLine as ask } from "../prompt.ts";
import { createConfirmDeps } from "../../app/deps.ts";
import { runConfirm } from "../../app/records/confirm.ts";
import { createColors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";
import { requireSubtask } from "./verify.ts";

export const confirmCommand = defineCommand({
  meta: {
    name: "confirm",
    description:
      "Confirm a subtask's manual checks yourself, at a terminal (records that a person checked)",
  },
  args: {
    ...sharedArgs,
    subtask: {
      type: "positional",
      required: true,
      description: "The subtask id, e.g. p1.1",
      valueHint: "subtask",
    },
    playbook: {
      type: "string",
      description: "The playbook (default: `active` in state.md)",
      valueHint: "path",
    },
  },
  async run({ args }) {
    const subtask = requireSubtask(args.subtask, args._, "confirm");
    const root = projectRoot(args);
    assertRuntimeWritable(root, `playbook confirm ${subtask}`);
    const report = await runConfirm(
      root,
      { subtask, playbook: args.playbook },
      // With --json, stdout carries only the JSON answer.
      createConfirmDeps((prompt) =>
        ask(prompt, args.json ? process.stderr : process.stdout),
      ),
    );
    if (args.json) {
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    const c = createColors();
    process.stdout.write(
      `${c.green("confirmed")} ${toTerminalText(report.subtask)} (${report.validations.join(", ")}) in ${toTerminalText(report.playbook)}\n${c.dim(
        "Editing its criterion or validations later makes this confirmation stale.",
      )}\n`,
    );
  },
});
