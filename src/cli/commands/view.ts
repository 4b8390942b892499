import { defineCommand } from "citty";
import { runView } from "../../app/view/run-view.ts";
import { createColors } from "../print/colors.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const viewCommand = defineCommand({
  meta: {
    name: "view",
    description:
      "Serve a live local page of the active playbook's claims and proof (127.0.0.1, a token per run); Ctrl-C stops it",
  },
  args: {
    ...sharedArgs,
    open: {
      type: "boolean",
      description: "Open the page in the browser (--no-open only prints its URL)",
      default: true,
    },
  },
  async run({ args }) {
    const root = projectRoot(args);
    const server = await runView(root, { open: args.open });
    const out = (text: string) => process.stdout.write(`${text}\n`);
    if (args.json) out(JSON.stringify({ url: server.url }));
    else
      out(
        `${createColors().green("view")}: ${server.url} (read-only; it updates as the records change). Ctrl-C stops it.`,
      );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    await server.close();
  },
});
