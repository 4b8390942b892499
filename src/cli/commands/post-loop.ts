import { defineCommand } from "citty";
import { runPostLoop } from "../../app/loop/post-loop.ts";
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
    const result = runPostLoop(projectRoot(args), new Date());
    process.stdout.write(
      args.json
        ? `${JSON.stringify(result, null, 2)}\n`
        : `${result.guidance.map(toTerminalText).join("\n")}\n`,
    );
  },
});
