import { defineCommand } from "citty";
import { runPostLoop } from "../../app/loop/post-loop.ts";
import { assertRuntimeWritable } from "../../app/records/runtime-writable.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const postLoopCommand = defineCommand({
  meta: {
    name: "post-loop",
    description:
      "Lift the post-loop lock after an archive and say how to pick the next task",
  },
  args: { ...sharedArgs },
  run({ args }) {
    const root = projectRoot(args);
    assertRuntimeWritable(root, "playbook post-loop", ".claude/playbook");
    const result = runPostLoop(root, new Date());
    process.stdout.write(
      args.json
        ? `${JSON.stringify(result, null, 2)}\n`
        : `${result.guidance.map(toTerminalText).join("\n")}\n`,
    );
  },
});
